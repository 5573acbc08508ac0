package lesson

import (
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// IsFault says whether a trace event is a fault the run met: a message
// lost, duplicated, slowed, held late or held back, a node crashed or
// paused.
func IsFault(e *sim.Event) bool {
	switch e.Kind {
	case sim.EvDrop:
		return e.Reason == sim.DropLoss
	case sim.EvDuplicate, sim.EvSlow, sim.EvCrash, sim.EvPause, sim.EvLate, sim.EvPreempt:
		return true
	}
	return false
}

// Cause is the trace position (Seq) of the fault behind the first
// operation of run that came to class: for many, the last fault that hit
// that operation (a message of it lost, duplicated, slowed, held; a
// crash in its handler) before its second effect — or, when none did,
// the last fault of the run before that effect (a crash elsewhere that
// emptied a store or rewound a log); for none, the last fault that hit
// it. ok is false when no operation came to class or no fault came
// before.
func Cause(run *SemanticsRun, class string) (seq uint32, ok bool) {
	op := First(run.Outcome, class)
	if op == 0 {
		return 0, false
	}
	var before uint32
	var anyBefore bool
	effects := 0
	for i := range run.Trace.Events {
		e := &run.Trace.Events[i]
		if e.Msg.Op == op && e.Kind == sim.EvEffect {
			if effects++; effects == 2 && class == ClassMany {
				break
			}
		}
		if !IsFault(e) {
			continue
		}
		if e.Msg.Op == op {
			seq, ok = e.Seq, true
		}
		before, anyBefore = e.Seq, true
	}
	if !ok && class == ClassMany && effects == 2 {
		return before, anyBefore
	}
	return seq, ok
}

// maxCauseChoices is how many trace lines a cause question offers.
const maxCauseChoices = 5

// causeChoices are the lines of the run's trace a cause question offers,
// in the trace's order: the cause, and the faults nearest to it in the
// trace (then the deliveries, effects and outcome of its operation, then
// the lines nearest to it, when the run met fewer faults) — lines that
// look alike, so that only reading the trace tells them apart. None when
// the run has no cause.
func causeChoices(run *SemanticsRun, class string) []Choice {
	if run == nil {
		return nil
	}
	cause, ok := Cause(run, class)
	if !ok {
		return nil
	}
	events := run.Trace.Events
	var faults, others, rest []uint32
	op := First(run.Outcome, class)
	for i := range events {
		e := &events[i]
		switch c := run.Config.Topology.Registry().EventClass(e.Kind); {
		case e.Seq == cause:
		case IsFault(e):
			faults = append(faults, e.Seq)
		case e.Msg.Op == op && (e.Kind == sim.EvDeliver || e.Kind == sim.EvEffect || e.Kind == sim.EvOutcome):
			others = append(others, e.Seq)
		case c != sim.ClassTimer && c != sim.ClassSend:
			rest = append(rest, e.Seq)
		}
	}
	distance := func(s uint32) int { return max(int(s)-int(cause), int(cause)-int(s)) }
	for _, l := range [][]uint32{faults, rest} {
		slices.SortStableFunc(l, func(a, b uint32) int { return distance(a) - distance(b) })
	}
	picked := []uint32{cause}
	for _, s := range slices.Concat(faults, others, rest) {
		if len(picked) == maxCauseChoices {
			break
		}
		picked = append(picked, s)
	}
	slices.Sort(picked)
	var out []Choice
	for _, s := range picked {
		out = append(out, Choice{Key: "event:" + strconv.Itoa(int(s)), Matches: func(r *SemanticsRun) bool {
			c, ok := Cause(r, class)
			return ok && c == s
		}})
	}
	return out
}

// EventOf is the trace event a cause choice's key ("event:SEQ") names.
func EventOf(run *SemanticsRun, key string) (*sim.Event, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(key, "event:"))
	if err != nil || !strings.HasPrefix(key, "event:") {
		return nil, false
	}
	for i := range run.Trace.Events {
		if int(run.Trace.Events[i].Seq) == n {
			return &run.Trace.Events[i], true
		}
	}
	return nil, false
}
