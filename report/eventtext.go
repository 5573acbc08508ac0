package report

import (
	"fmt"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// eventID prefixes the message ids of EventWords.
const eventID = "event."

// EventWords says what one event did, short and in the current language:
// "send pay op-3 #2", "EFFECT card-charges op-3 = 8826", "timer retry
// op-2". msg is how the event's message is named (MessageName for the
// lanes, MessageLabel for a timeline); an effect that is not its
// operation's first (nth > 1) says which effect it is. The TUI's lanes and
// timeline and explore's steps all say an event this way; the trace
// (Describe) stays English, a contract.
func EventWords(topo *sim.Topology, e *sim.Event, msg string, nth int) string {
	m := &e.Msg
	t := func(id string, data map[string]any) string { return lang.Tf(eventID+id, data) }
	table := func() string { return topo.TableName(e.Node, sim.TableID(e.Label)) }
	label := EventLabel(topo, e.Kind)
	switch EventClass(topo, e.Kind) {
	case sim.ClassSend:
		if e.Kind == sim.EvSend {
			return t("send", map[string]any{"Msg": msg})
		}
		return label + " " + msg
	case sim.ClassDeliver:
		if e.Kind == sim.EvDeliver {
			return t("deliver", map[string]any{"Msg": msg})
		}
		return label + " " + msg
	case sim.ClassDrop:
		if e.Kind == sim.EvDrop {
			return t("drop", map[string]any{"Reason": DropReasonWords(e.Reason), "Msg": msg})
		}
		return fmt.Sprintf("%s (%s) %s", label, DropReasonWords(e.Reason), msg)
	case sim.ClassInFlight:
		switch e.Kind {
		case sim.EvDuplicate:
			return t("dup_msg", map[string]any{"Msg": msg})
		case sim.EvSlow:
			return t("slow_msg", map[string]any{"Msg": msg})
		case sim.EvLate:
			return t("late_msg", map[string]any{"Msg": msg})
		}
		return label + " " + msg
	case sim.ClassTimer:
		if e.Kind == sim.EvTimerFire {
			return t("timer", map[string]any{"Timer": topo.TimerName(sim.TimerKind(e.Label)), "Op": m.Op.String()})
		}
		return fmt.Sprintf("%s %s %s", label, topo.TimerName(sim.TimerKind(e.Label)), m.Op)
	case sim.ClassStop:
		switch e.Kind {
		case sim.EvCrash:
			return t("crash_at", map[string]any{"Point": topo.PointName(sim.PointID(e.Label))})
		case sim.EvPause:
			return t("pause_at", map[string]any{"Point": topo.PointName(sim.PointID(e.Label)), "For": TimeWords(sim.Time(m.Value))})
		}
		return label + " " + topo.PointName(sim.PointID(e.Label))
	case sim.ClassStart:
		switch e.Kind {
		case sim.EvRestart:
			return t("restart", nil)
		case sim.EvResume:
			return t("resume", nil)
		}
		return label + " " + topo.NodeName(e.Node)
	case sim.ClassStore:
		switch {
		case e.Kind == sim.EvStoreGet:
			return t("get", map[string]any{"Table": table(), "Key": m.Key})
		case e.Kind == sim.EvStorePut:
			return t("put", map[string]any{"Table": table(), "Key": m.Key})
		case e.Kind == sim.EvStoreDelete && e.Found:
			return t("expire", map[string]any{"Table": table(), "Key": m.Key})
		case e.Kind == sim.EvStoreDelete:
			return t("delete", map[string]any{"Table": table(), "Key": m.Key})
		}
		return fmt.Sprintf("%s %s[%d]", label, table(), m.Key)
	case sim.ClassEffect:
		data := map[string]any{"Sink": topo.SinkName(sim.SinkID(e.Label)), "Op": m.Op.String(), "Value": m.Value, "N": nth}
		if nth > 1 {
			return t("effect_again", data)
		}
		return t("effect", data)
	case sim.ClassOutcome:
		return t("result", map[string]any{"Op": m.Op.String(), "Status": m.Status})
	}
	return label
}

// DropReasonWords is why a message was dropped, in the current language:
// "loss", "partition", "down".
func DropReasonWords(r sim.DropReason) string {
	switch r {
	case sim.DropLoss:
		return lang.T("event.reason_loss")
	case sim.DropPartition:
		return lang.T("event.reason_partition")
	case sim.DropDown:
		return lang.T("event.reason_down")
	}
	return r.String()
}

// MessageLabel names an event's message with every value it carries:
// "pay-response op-3 #1 key=1000003 value=8821 status=201".
func MessageLabel(topo *sim.Topology, m *sim.Message) string { return msgLabel(topo, m) }

// DescribeHere is Describe in the current language, for what a student
// reads (the TUI's timeline, explore's steps): in English it is Describe
// byte for byte; in another language the node, what happened in
// EventWords with the message's full label, and the peer it went to or
// came from.
func DescribeHere(topo *sim.Topology, e *sim.Event) string {
	if lang.Current() == lang.English {
		return Describe(topo, e)
	}
	node := topo.NodeName(e.Node)
	words := EventWords(topo, e, msgLabel(topo, &e.Msg), 0)
	switch c := EventClass(topo, e.Kind); {
	case c == sim.ClassSend || c == sim.ClassDrop || c == sim.ClassInFlight:
		words += " → " + topo.NodeName(e.Peer)
	case c == sim.ClassDeliver:
		words += " ← " + topo.NodeName(e.Peer)
	case e.Kind == sim.EvStoreGet:
		if e.Found {
			words += " → " + recordLabel(topo, e)
		} else {
			words += " → " + lang.T("event.not_found")
		}
	case e.Kind == sim.EvStorePut:
		words += " = " + recordLabel(topo, e)
	case c == sim.ClassOutcome:
		if e.Msg.Value != 0 {
			words += fmt.Sprintf(" value=%d", e.Msg.Value)
		}
	}
	return fmt.Sprintf("%-9s %s", node, words)
}
