package report

import (
	"slices"
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
func focusTiers(focus []sim.OpID) []func(*sim.Event) bool {
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
				return !isStoreEvent(e.Kind)
			}
			return ofFocus(e)
		},
		func(e *sim.Event) bool {
			if e.Msg.Op <= 0 {
				return !isStoreEvent(e.Kind) && !isMessageEvent(e.Kind)
			}
			return ofFocus(e)
		},
		func(e *sim.Event) bool {
			if isStoreEvent(e.Kind) {
				return false
			}
			if e.Msg.Op <= 0 {
				return !isMessageEvent(e.Kind)
			}
			return ofFocus(e)
		})
	return tiers
}

func isStoreEvent(k sim.EventKind) bool { return k.Class() == sim.ClassStore }

func isMessageEvent(k sim.EventKind) bool {
	switch k.Class() {
	case sim.ClassSend, sim.ClassDeliver, sim.ClassDrop, sim.ClassInFlight:
		return true
	}
	return false
}

// MaxDiagramEvents is how many events a space-time diagram draws before a
// long trace is cut down to its focus (see FocusEvents).
const MaxDiagramEvents = 120

// FocusEvents cuts a long trace down for a diagram: past MaxDiagramEvents
// it keeps the events of the first tier of focusTiers that fits (the last
// one if none does) and says in one line what it left out; a short trace
// comes back whole, with no note.
func FocusEvents(events []sim.Event, focus []sim.OpID) ([]sim.Event, string) {
	if len(events) <= MaxDiagramEvents {
		return events, ""
	}
	var kept []sim.Event
	var keep func(*sim.Event) bool
	for _, k := range focusTiers(focus) {
		keep, kept = k, kept[:0]
		for i := range events {
			if k(&events[i]) {
				kept = append(kept, events[i])
			}
		}
		if len(kept) <= MaxDiagramEvents {
			break
		}
	}
	var ops []sim.OpID
	background := 0
	for i := range events {
		e := &events[i]
		if keep(e) {
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
	return kept, stepsLeftOut(len(events)-len(kept), strings.Join(parts, ", "))
}
