package report

import (
	"slices"
	"sort"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// focusTiers are the ever shorter views of a long trace, each a filter of
// its events, tried in order until the picture fits: first the events of
// the focus operations (those the lesson is about — as many of the first
// of them as fit), of the first operation (the normal path, once) and of
// no operation (crashes, restarts, the protocol); then without the store
// steps of no operation (a coordinator's log, offsets); then without its
// messages either; last, without the store steps of the kept operations
// too (a saga log written at every step), their messages and effects
// kept. Crashes, restarts and pauses always stay.
func focusTiers(topo *sim.Topology, focus []sim.OpID) []func(*sim.Event) bool {
	var tiers []func(*sim.Event) bool
	for k := len(focus); k >= 1; k-- {
		kept := focus[:k]
		tiers = append(tiers, func(e *sim.Event) bool { return e.Msg.Op <= 1 || slices.Contains(kept, e.Msg.Op) })
	}
	first := focus[:min(1, len(focus))]
	ofFocus := func(e *sim.Event) bool { return e.Msg.Op == 1 || slices.Contains(first, e.Msg.Op) }
	tiers = append(tiers,
		func(e *sim.Event) bool {
			if e.Msg.Op <= 0 {
				return !isStoreEvent(topo, e.Kind)
			}
			return ofFocus(e)
		},
		func(e *sim.Event) bool {
			if e.Msg.Op <= 0 {
				return !isStoreEvent(topo, e.Kind) && !isMessageEvent(topo, e.Kind)
			}
			return ofFocus(e)
		},
		func(e *sim.Event) bool {
			if isStoreEvent(topo, e.Kind) {
				return false
			}
			if e.Msg.Op <= 0 {
				return !isMessageEvent(topo, e.Kind)
			}
			return ofFocus(e)
		})
	return tiers
}

func isStoreEvent(topo *sim.Topology, k sim.EventKind) bool {
	return EventClass(topo, k) == sim.ClassStore
}

func isMessageEvent(topo *sim.Topology, k sim.EventKind) bool {
	switch EventClass(topo, k) {
	case sim.ClassSend, sim.ClassDeliver, sim.ClassDrop, sim.ClassInFlight:
		return true
	}
	return false
}

// MaxDiagramEvents is how many events a space-time diagram draws before a
// long trace is cut down to its focus (see FocusEvents).
const MaxDiagramEvents = 120

// FocusOps are the operations a long diagram keeps: those that did not
// end exactly once (lost or duplicated), the lesson's.
func FocusOps(o *sim.Outcome) []sim.OpID {
	var out []sim.OpID
	for _, op := range o.Ops {
		if op.Verdict != sim.ExactlyOnce {
			out = append(out, op.Op)
		}
	}
	return out
}

// FocusEvents cuts a long trace down for a diagram: past MaxDiagramEvents
// it keeps the events of the first tier of focusTiers that fits (the last
// one if none does) and says in one line what it left out; a short trace
// comes back whole, with no note.
func FocusEvents(topo *sim.Topology, events []sim.Event, focus []sim.OpID) ([]sim.Event, string) {
	if len(events) <= MaxDiagramEvents {
		return events, ""
	}
	return focusWith(events, focusTiers(topo, focus), func(kept []sim.Event) bool { return len(kept) <= MaxDiagramEvents })
}

// FocusEventsFit is FocusEvents with the caller's measure of what fits (a
// slide's page rather than a number of events): the whole trace when it
// fits, else the first view of focusTiers that fits, then the first focus
// operation alone (op-1 left out too) with the crashes, restarts and
// pauses, then that without its store steps — the last one when none
// fits —, and the note of what it left out.
func FocusEventsFit(topo *sim.Topology, events []sim.Event, focus []sim.OpID, fits func([]sim.Event) bool) ([]sim.Event, string) {
	if fits(events) {
		return events, ""
	}
	op := sim.OpID(1)
	if len(focus) > 0 {
		op = focus[0]
	}
	stops := func(e *sim.Event) bool {
		c := EventClass(topo, e.Kind)
		return c == sim.ClassStop || c == sim.ClassStart
	}
	tiers := append(focusTiers(topo, focus),
		func(e *sim.Event) bool { return e.Msg.Op == op || e.Msg.Op <= 0 && stops(e) },
		func(e *sim.Event) bool {
			return e.Msg.Op == op && !isStoreEvent(topo, e.Kind) || e.Msg.Op <= 0 && stops(e)
		})
	kept, note := focusWith(events, tiers, fits)
	if fits(kept) {
		return kept, note
	}
	// Still too long: a window of that view ending just after its
	// lesson — the operation's second effect, else its first loss, else
	// its last step —, as many steps before it as fit.
	last := tiers[len(tiers)-1]
	lesson, effects := -1, 0
	for i := range kept {
		e := &kept[i]
		if e.Msg.Op != op {
			continue
		}
		switch {
		case EventClass(topo, e.Kind) == sim.ClassEffect:
			if effects++; effects == 2 {
				lesson = i
			}
		case EventClass(topo, e.Kind) == sim.ClassDrop && lesson < 0 && effects < 2:
			lesson = i
		}
		if effects == 2 {
			break
		}
	}
	if lesson < 0 {
		lesson = len(kept) - 1
	}
	end := lesson + 1
	for end < len(kept) && kept[end].At == kept[lesson].At {
		end++
	}
	start := sort.Search(lesson+1, func(s int) bool { return fits(kept[s:end]) })
	start = min(start, lesson)
	window := kept[start:end]
	from, to := window[0].At, window[len(window)-1].At
	k := 0
	in := make([]bool, len(events))
	for i := range events {
		if last(&events[i]) {
			in[i] = k >= start && k < end && events[i].At >= from && events[i].At <= to
			k++
		}
	}
	return window, leftOut(events, func(i int) bool { return in[i] }, len(events)-len(window))
}

// focusWith keeps the events of the first tier whose events fit (the last
// tier's when none does) and says in one line what it left out.
func focusWith(events []sim.Event, tiers []func(*sim.Event) bool, fits func([]sim.Event) bool) ([]sim.Event, string) {
	var kept []sim.Event
	var keep func(*sim.Event) bool
	for _, k := range tiers {
		keep, kept = k, nil
		for i := range events {
			if k(&events[i]) {
				kept = append(kept, events[i])
			}
		}
		if fits(kept) {
			break
		}
	}
	return kept, leftOut(events, func(i int) bool { return keep(&events[i]) }, len(events)-len(kept))
}

// leftOut is the note of a view of events that keeps those kept says
// and leaves n out: which operations' steps (and whether background
// steps) it left out.
func leftOut(events []sim.Event, kept func(i int) bool, n int) string {
	var ops []sim.OpID
	background := 0
	for i := range events {
		e := &events[i]
		if kept(i) {
			continue
		}
		if e.Msg.Op <= 0 {
			background++
		} else if !slices.Contains(ops, e.Msg.Op) {
			ops = append(ops, e.Msg.Op)
		}
	}
	slices.Sort(ops)
	var parts []string
	if len(ops) > 0 {
		names := make([]string, len(ops))
		for i, op := range ops {
			names[i] = op.String()
		}
		parts = append(parts, strings.Join(names, ", "))
	}
	if background > 0 {
		parts = append(parts, lang.T("mermaid.background"))
	}
	return stepsLeftOut(n, strings.Join(parts, ", "))
}
