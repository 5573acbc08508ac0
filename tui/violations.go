package tui

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A violation is one place in the trace where the lesson shows: the
// second effect of a duplicated operation, the fault that lost an
// operation, the event an invariant's violation names. The f, ] and [
// keys jump between them.
type violation struct {
	event int    // index of the event in the trace
	what  string // one line for the flash, in the current language
}

// observed reports whether e is an effect on a sink the verdicts count.
func (r *result) observed(e *sim.Event) bool {
	if e.Kind != sim.EvEffect || e.Msg.Op == 0 {
		return false
	}
	return len(r.observe.Sinks) == 0 || slices.Contains(r.observe.Sinks, sim.SinkID(e.Label))
}

// effectNth is, for an observed effect event, which effect of its
// operation it is (1 for the first); 0 for any other event. Read from the
// trace alone: the second and later effects are the ones drawn in red.
func (r *result) effectNth() []int {
	nth := make([]int, len(r.events))
	seen := map[sim.OpID]int{}
	for i := range r.events {
		if e := &r.events[i]; r.observed(e) {
			seen[e.Msg.Op]++
			nth[i] = seen[e.Msg.Op]
		}
	}
	return nth
}

// opsNamed matches the operations and the time a checker's violation text
// names: "op-4's event took effect on billing at 330ms".
var (
	opNamed   = regexp.MustCompile(`\bop-([0-9]+)`)
	timeNamed = regexp.MustCompile(`\bat ([0-9.]+m?s)\b`)
)

// findViolations lists the violations of the run in trace order: for every
// duplicated operation its second and later effects, for every lost one
// the last fault that hit its messages (else its last event), and for
// every violated invariant the event its text points at.
func (r *result) findViolations() []violation {
	if r.outcome == nil {
		return nil
	}
	verdict := map[sim.OpID]sim.Verdict{}
	for _, op := range r.outcome.Ops {
		verdict[op.Op] = op.Verdict
	}
	nth := r.effectNth()
	var out []violation
	lostAt := map[sim.OpID]int{}
	lastOf := map[sim.OpID]int{}
	for i := range r.events {
		e := &r.events[i]
		op := e.Msg.Op
		if op == 0 {
			continue
		}
		lastOf[op] = i
		switch {
		case nth[i] > 1 && verdict[op] == sim.Duplicated:
			out = append(out, violation{event: i, what: lang.Tf("tui.violation.dup", map[string]any{
				"Op": op.String(), "Words": lang.Word("outcome", r.words.Many), "N": nth[i], "Value": strconv.FormatInt(e.Msg.Value, 10)})})
		case verdict[op] == sim.Lost && (e.Kind == sim.EvDrop || e.Kind == sim.EvCrash):
			lostAt[op] = i
		}
	}
	for _, op := range r.outcome.Ops {
		if op.Verdict != sim.Lost {
			continue
		}
		i, ok := lostAt[op.Op]
		if !ok {
			if i, ok = lastOf[op.Op]; !ok {
				continue
			}
		}
		out = append(out, violation{event: i, what: lang.Tf("tui.violation.lost", map[string]any{"Op": op.Op.String(), "Words": lang.Word("outcome", r.words.None)})})
	}
	for _, inv := range r.outcome.Invariants {
		if inv.Violation == "" {
			continue
		}
		if i, ok := r.eventNamed(inv.Violation, nth); ok {
			out = append(out, violation{event: i, what: lang.Tf("tui.violation.invariant", map[string]any{
				"Name": inv.Name, "Text": lang.Violation(inv.Detail)})})
		}
	}
	slices.SortStableFunc(out, func(a, b violation) int { return a.event - b.event })
	return slices.CompactFunc(out, func(a, b violation) bool { return a.event == b.event })
}

// eventNamed is the event a violation text points at: the first effect of
// the operation it names at the time it names, else that operation's
// second effect, else its first effect, else its first event.
func (r *result) eventNamed(text string, nth []int) (int, bool) {
	m := opNamed.FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	op := sim.OpID(n)
	at := sim.Time(-1)
	if t := timeNamed.FindStringSubmatch(text); t != nil {
		if d, err := scenarios.ParseDuration(t[1]); err == nil {
			at = d
		}
	}
	first, second, any := -1, -1, -1
	for i := range r.events {
		e := &r.events[i]
		if e.Msg.Op != op {
			continue
		}
		if at >= 0 && e.At == at && e.Kind == sim.EvEffect {
			return i, true
		}
		if any < 0 {
			any = i
		}
		switch nth[i] {
		case 1:
			first = i
		case 2:
			if second < 0 {
				second = i
			}
		}
	}
	for _, i := range []int{second, first, any} {
		if i >= 0 {
			return i, true
		}
	}
	return 0, false
}

// nextViolation is the violation after (dir=1) or before (dir=-1) the
// cursor, and its number counted from 1; ok is false when there is none
// that way.
func nextViolation(vs []violation, cursor, dir int) (v violation, n int, ok bool) {
	if dir > 0 {
		for i, v := range vs {
			if v.event > cursor {
				return v, i + 1, true
			}
		}
		return violation{}, 0, false
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].event < cursor {
			return vs[i], i + 1, true
		}
	}
	return violation{}, 0, false
}
