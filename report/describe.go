package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// msgLabel names a message: "pay-response op-3 #1 key=1000003 txn=8821 201".
func msgLabel(topo *sim.Topology, m *sim.Message) string {
	var b strings.Builder
	b.WriteString(topo.MessageName(m.Kind))
	if m.Op != 0 {
		fmt.Fprintf(&b, " %s", m.Op)
	}
	if m.Attempt != 0 {
		fmt.Fprintf(&b, " #%d", m.Attempt)
	}
	if m.Key != 0 {
		fmt.Fprintf(&b, " key=%d", m.Key)
	}
	if m.Value != 0 {
		fmt.Fprintf(&b, " value=%d", m.Value)
	}
	if m.Status != 0 {
		fmt.Fprintf(&b, " status=%d", m.Status)
	}
	return b.String()
}

// StateName names state in table of node, as the topology declares it
// ("PROCESSING"), or "state=N" when it declares no name.
func StateName(topo *sim.Topology, node sim.NodeID, table sim.TableID, state int32) string {
	if int(node) < len(topo.Nodes) && int(table) < len(topo.Nodes[node].Tables) {
		names := topo.Nodes[node].Tables[table].States
		if int(state) < len(names) && names[state] != "" {
			return names[state]
		}
	}
	return fmt.Sprintf("state=%d", state)
}

func recordLabel(topo *sim.Topology, e *sim.Event) string {
	r := &e.Rec
	parts := []string{StateName(topo, e.Node, e.Table(), r.State)}
	if r.Status != 0 {
		parts = append(parts, fmt.Sprintf("status=%d", r.Status))
	}
	if r.Value != 0 {
		parts = append(parts, fmt.Sprintf("value=%d", r.Value))
	}
	return strings.Join(parts, " ")
}

// Describe renders one event as a line of the text timeline, without the
// time column.
func Describe(topo *sim.Topology, e *sim.Event) string {
	node := topo.NodeName(e.Node)
	peer := ""
	if e.Peer != sim.NoNode {
		peer = topo.NodeName(e.Peer)
	}
	m := &e.Msg
	table := func() string { return topo.TableName(e.Node, sim.TableID(e.Label)) }
	w := wordsOfTrace()
	word := w.kind(topo.Registry(), e.Kind)
	switch EventClass(topo, e.Kind) {
	case sim.ClassSend:
		return fmt.Sprintf("%-9s %-8s → %-9s %s", node, word, peer, msgLabel(topo, m))
	case sim.ClassDeliver:
		return fmt.Sprintf("%-9s %-8s ← %-9s %s", node, word, peer, msgLabel(topo, m))
	case sim.ClassDrop:
		if !w.english { // "PIERDUT (pe rețea)": a word, then its reason apart
			word += " "
		}
		return fmt.Sprintf("%-9s %s(%s) → %s %s", node, word, w.reason(e.Reason), peer, msgLabel(topo, m))
	case sim.ClassInFlight:
		switch e.Kind {
		case sim.EvDuplicate:
			return fmt.Sprintf("%-9s %s → %s %s", node, word, peer, msgLabel(topo, m))
		case sim.EvPreempt:
			return fmt.Sprintf("%-9s %-8s → %-9s %s %s", node, word, peer, msgLabel(topo, m), w.heldBack)
		}
		return fmt.Sprintf("%-9s %-8s → %-9s %s", node, word, peer, msgLabel(topo, m))
	case sim.ClassTimer:
		s := fmt.Sprintf("%-9s %-8s %s %s #%d", node, word, topo.TimerName(sim.TimerKind(e.Label)), m.Op, m.Attempt)
		if m.Status != 0 { // the timer's phase (sim.Timer.Phase)
			s += fmt.Sprintf(" %s %d", w.phase, m.Status)
		}
		return s
	case sim.ClassStop:
		s := fmt.Sprintf("%-9s %-8s %s %s", node, word, w.at, topo.PointName(sim.PointID(e.Label)))
		if e.Kind == sim.EvPause {
			s += " " + lang.Current().Tf(traceID+"pause_for", map[string]any{"For": TimeWords(sim.Time(m.Value))})
		}
		if m.Op != 0 {
			s += fmt.Sprintf(" (%s #%d)", m.Op, m.Attempt)
		}
		return s
	case sim.ClassStart:
		switch e.Kind {
		case sim.EvRestart:
			return fmt.Sprintf("%-9s %-8s %s", node, word, w.restarted)
		case sim.EvResume:
			return fmt.Sprintf("%-9s %-8s %s", node, word, w.resumed)
		}
		return fmt.Sprintf("%-9s %s", node, word)
	case sim.ClassStore:
		switch {
		case e.Kind == sim.EvStoreGet && !e.Found:
			return fmt.Sprintf("%-9s %-8s %s[%d] → %s", node, word, table(), m.Key, w.notFound)
		case e.Kind == sim.EvStoreGet:
			return fmt.Sprintf("%-9s %-8s %s[%d] → %s", node, word, table(), m.Key, recordLabel(topo, e))
		case e.Kind == sim.EvStorePut:
			return fmt.Sprintf("%-9s %-8s %s[%d] = %s", node, word, table(), m.Key, recordLabel(topo, e))
		case e.Kind == sim.EvStoreDelete && e.Found:
			return fmt.Sprintf("%-9s %-8s %s[%d] %s", node, w.expire, table(), m.Key, w.expired)
		}
		return fmt.Sprintf("%-9s %-8s %s[%d]", node, word, table(), m.Key)
	case sim.ClassEffect:
		return fmt.Sprintf("%-9s %-8s %s %s value=%d", node, word, topo.SinkName(sim.SinkID(e.Label)), m.Op, m.Value)
	case sim.ClassOutcome:
		return fmt.Sprintf("%-9s %-8s %s status=%d value=%d", node, word, m.Op, m.Status, m.Value)
	}
	return fmt.Sprintf("%-9s %s", node, e.Kind)
}

// WriteTimeline writes the trace as one line per event: time, then what
// happened. It is the format of the golden traces under testdata/.
func WriteTimeline(w io.Writer, topo *sim.Topology, events []sim.Event) error {
	var b strings.Builder
	for i := range events {
		e := &events[i]
		fmt.Fprintf(&b, "%8s  %s\n", TimeWords(e.At), Describe(topo, e))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TimeWords is a virtual time as the current language writes it: "481ms"
// and "62s" in English (the trace's contract), the number in the
// language's form, a space and the language's unit otherwise ("481 мс",
// "1,555 s"): lang.Duration.
func TimeWords(t sim.Time) string { return lang.Duration(t.String()) }
