package lesson

import (
	"fmt"
	"strconv"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// A Choice is one answer a question offers. Key names it for the texts:
// a count ("0", "1", "4+"), an operation ("op-2"), a message ("#3"),
// "none", "both", "neither", "alone:NODE", a fault kind ("fault:ack-loss"),
// a change ("set:store=durable"), a statement ("cut:last") or a line of
// the trace ("event:SEQ"). Matches says whether a run is that answer.
// Probe, for a breaks or fix choice, is the search that proves whether
// it is (its command checks it).
type Choice struct {
	Key     string
	Matches func(run *SemanticsRun) bool
	Probe   *Probe
}

// maxCount is the largest count a count question offers by itself; the
// last choice is "maxCount or more" when the run has more operations.
const maxCount = 5

// opClass is what operation i (0-based) of o came to, read from the
// checker's result as it is today (its verdict and its counts). It is
// the one place the quiz reads an operation's outcome: when the checker
// classifies outcomes itself (refused as designed, not started), switch
// here.
func opClass(o *sim.Outcome, i int) string {
	op := &o.Ops[i]
	switch op.Verdict {
	case sim.Lost:
		return ClassNone
	case sim.Duplicated:
		return ClassMany
	}
	return ClassOnce
}

// hasClass says whether operation i of o counts for class: caught is an
// operation delivered more than once and yet applied once.
func hasClass(o *sim.Outcome, i int, class string) bool {
	c := opClass(o, i)
	if class == ClassCaught {
		return c == ClassOnce && o.Ops[i].Deliveries > 1
	}
	return c == class
}

// RowHolds says whether a run's row holds for the customer: the checker
// found no violation (the semantics' promise and every invariant) and
// every operation took effect exactly once. A row of at-least-once that
// keeps its own promise (≥1) with a payment charged twice does not hold.
// Read from the checker's result as it is today, like opClass.
func RowHolds(o *sim.Outcome) bool {
	return o.Status == sim.Held && Count(o, ClassOnce) == len(o.Ops)
}

// RowViolated says whether the checker found a violation in a run: its
// promise or an invariant (the Two Generals' agreement).
func RowViolated(o *sim.Outcome) bool { return o.Status == sim.Violated }

// Count is how many operations of o came to class.
func Count(o *sim.Outcome, class string) int {
	n := 0
	for i := range o.Ops {
		if hasClass(o, i, class) {
			n++
		}
	}
	return n
}

// First is the lowest-numbered operation of o that came to class, 0 when
// none did.
func First(o *sim.Outcome, class string) sim.OpID {
	for i := range o.Ops {
		if hasClass(o, i, class) {
			return o.Ops[i].Op
		}
	}
	return 0
}

// FirstDrop is the number (#n, the message's attempt field as the trace
// shows it) of the first message the network lost, 0 when none was.
func FirstDrop(t *sim.Trace) int32 {
	for _, e := range t.Events {
		if e.Kind == sim.EvDrop && e.Reason == sim.DropLoss {
			return e.Msg.Attempt
		}
	}
	return 0
}

// Acted are the nodes that applied an effect, in node order.
func Acted(run *SemanticsRun) []string {
	seen := map[sim.NodeID]bool{}
	for _, e := range run.Trace.Events {
		if e.Kind == sim.EvEffect {
			seen[e.Node] = true
		}
	}
	var out []string
	for id := range run.Config.Topology.Nodes {
		if seen[sim.NodeID(id)] {
			out = append(out, run.Config.Topology.NodeName(sim.NodeID(id)))
		}
	}
	return out
}

// Metric is the value of metric name in o.
func Metric(o *sim.Outcome, name string) (float64, bool) {
	for _, m := range o.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// countChoices are 0, 1, … up to n, the last one "maxCount+" when n is
// larger; at least 0, 1, 2, 3.
func countChoices(n int, value func(*SemanticsRun) (int, bool)) []Choice {
	top := min(max(n, minChoices-1), maxCount)
	var out []Choice
	for k := 0; k <= top; k++ {
		key := strconv.Itoa(k)
		if k == top && n > top {
			key += "+"
		}
		out = append(out, Choice{Key: key, Matches: func(r *SemanticsRun) bool {
			v, ok := value(r)
			return ok && (v == k || k == top && v > top)
		}})
	}
	return out
}

// choices are the answers q offers as written (before a sheet's
// shuffle): at least four, exclusive, covering every run (the course's
// test checks that exactly one matches each question). Only a cause
// question's depend on the run (the lines of its trace); the others
// depend on the course alone.
func (q *Question) choices(run *SemanticsRun, nodes []string) []Choice {
	switch q.Ask {
	case AskCount:
		return countChoices(q.ops, func(r *SemanticsRun) (int, bool) { return Count(r.Outcome, q.Class), true })
	case AskMetric:
		return countChoices(maxCount+1, func(r *SemanticsRun) (int, bool) { // the last choice is "5+"
			v, ok := Metric(r.Outcome, q.Name)
			return int(v), ok && v == float64(int(v)) && v >= 0
		})
	case AskFirst:
		var out []Choice
		for k := 1; k <= q.ops; k++ {
			out = append(out, Choice{Key: sim.OpID(k).String(), Matches: func(r *SemanticsRun) bool { return int(First(r.Outcome, q.Class)) == k }})
		}
		return append(out, Choice{Key: "none", Matches: func(r *SemanticsRun) bool { return First(r.Outcome, q.Class) == 0 }})
	case AskDrop:
		var out []Choice
		for k := 1; k <= q.Of; k++ {
			out = append(out, Choice{Key: "#" + strconv.Itoa(k), Matches: func(r *SemanticsRun) bool { return int(FirstDrop(r.Trace)) == k }})
		}
		return append(out, Choice{Key: "none", Matches: func(r *SemanticsRun) bool { return FirstDrop(r.Trace) == 0 }})
	case AskActed:
		acted := func(r *SemanticsRun) []string { return Acted(r) }
		out := []Choice{{Key: "both", Matches: func(r *SemanticsRun) bool { return len(acted(r)) >= 2 }}}
		for _, n := range nodes {
			out = append(out, Choice{Key: "alone:" + n, Matches: func(r *SemanticsRun) bool { a := acted(r); return len(a) == 1 && a[0] == n }})
		}
		return append(out, Choice{Key: "neither", Matches: func(r *SemanticsRun) bool { return len(acted(r)) == 0 }})
	case AskBreaks:
		var out []Choice
		for _, k := range q.Faults {
			p := q.probe(nil, k, 1)
			out = append(out, Choice{Key: "fault:" + k, Probe: &p, Matches: func(*SemanticsRun) bool {
				res, err := p.Explore()
				return err == nil && !res.Holds
			}})
		}
		return out
	case AskFix:
		var out []Choice
		for _, set := range q.Sets {
			p := q.probe(&set, "", 0)
			out = append(out, Choice{Key: "set:" + set, Probe: &p, Matches: func(*SemanticsRun) bool {
				res, err := p.Explore()
				return err == nil && res.Holds
			}})
		}
		return out
	case AskFaults:
		p := q.probe(nil, "", 0)
		return countChoices(minChoices, func(*SemanticsRun) (int, bool) {
			res, err := p.Explore()
			return len(res.Faults), err == nil
		})
	case AskCut:
		var out []Choice
		for _, st := range cutStatements {
			out = append(out, Choice{Key: "cut:" + st.key, Matches: func(*SemanticsRun) bool {
				cuts, err := q.cuts.facts()
				return err == nil && st.true(cuts)
			}})
		}
		return out
	case AskCause:
		return causeChoices(run, q.Class)
	}
	return nil
}

// probe is the search of q's variant: with one more change (fix), or
// with only the fault kind faults and a budget (breaks); the scenario's
// explore defaults otherwise.
func (q *Question) probe(change *string, faults string, maxFaults int) Probe {
	sem, _ := sim.ParseSemantics(q.Semantics)
	set := map[string]string{}
	for k, v := range q.set {
		set[k] = v
	}
	if change != nil {
		k, v, _ := scenarios.ParseSet(*change)
		set[k] = v
	}
	return Probe{Scenario: q.scenario, Semantics: sem, Set: set, Faults: faults, MaxFaults: maxFaults}
}

// BrokenRule is the invariant that a breaks or fix question's broken
// variant breaks, by the search its answer rests on — the right fault's
// for a breaks question (answer is its index among ChoicesFor(results),
// as Answer returns it), the variant's own for a fix question — or ""
// when an operation's outcome is what breaks (and for other questions).
// A question's stem says which it is.
func (q *Question) BrokenRule(results map[string]*Result, answer int) (string, error) {
	var p Probe
	switch q.Ask {
	case AskBreaks:
		choices := q.ChoicesFor(results)
		if answer < 0 || answer >= len(choices) {
			return "", nil
		}
		p = *choices[answer].Probe
	case AskFix:
		p = q.probe(nil, "", 0)
	default:
		return "", nil
	}
	res, err := p.Explore()
	if err != nil {
		return "", err
	}
	return res.Rule, nil
}

// Probes are the searches q's answer rests on (none for a question read
// from the run): a breaks or fix question's one per choice, a faults
// question's one.
func (q *Question) Probes() []Probe {
	switch q.Ask {
	case AskFaults:
		return []Probe{q.probe(nil, "", 0)}
	case AskBreaks, AskFix:
		var out []Probe
		for _, c := range q.choices(nil, nil) {
			out = append(out, *c.Probe)
		}
		return out
	}
	return nil
}

// SemanticsRun is the semantics run q asks about, from the step's results.
func (q *Question) SemanticsRun(results map[string]*Result) (*SemanticsRun, error) {
	r := results[q.Run]
	if r == nil {
		return nil, fmt.Errorf("lesson: question on run %q: not run", q.Run)
	}
	sem, err := sim.ParseSemantics(q.Semantics)
	if err != nil {
		return nil, fmt.Errorf("lesson: %w", err)
	}
	run := r.Of(sem)
	if run == nil {
		return nil, fmt.Errorf("lesson: run %s has no %s", q.Run, sem)
	}
	return run, nil
}

// ChoicesFor are q's choices for its run in results, in the order the
// sheet shows them.
func (q *Question) ChoicesFor(results map[string]*Result) []Choice {
	r := results[q.Run]
	var nodes []string
	var run *SemanticsRun
	if r != nil && len(r.Runs) > 0 {
		nodes = actors(r.Runs[0].Config.Topology)
		run, _ = q.SemanticsRun(results)
	}
	written := q.choices(run, nodes)
	out := make([]Choice, len(written))
	for k, i := range q.permutation(len(written)) {
		out[k] = written[i]
	}
	return out
}

// actors are the nodes that can apply an effect: those with a name in
// the topology, in order (a two-node scenario's both nodes).
func actors(t *sim.Topology) []string {
	var out []string
	for i := range t.Nodes {
		out = append(out, t.NodeName(sim.NodeID(i)))
	}
	return out
}

// prepare runs the searches q's answer rests on, so that their errors
// are errors rather than choices that do not match.
func (q *Question) prepare() error {
	for _, p := range q.Probes() {
		if _, err := p.Explore(); err != nil {
			return err
		}
	}
	if q.Ask == AskCut {
		if _, err := q.cuts.facts(); err != nil {
			return err
		}
	}
	return nil
}

// Answer is the index of q's right choice as the sheet shows it,
// computed from the run it asks about or from the searches it rests on;
// an error when not exactly one choice matches (a broken course).
func (q *Question) Answer(results map[string]*Result) (int, error) {
	if err := q.prepare(); err != nil {
		return 0, err
	}
	run, err := q.SemanticsRun(results)
	if err != nil {
		return 0, err
	}
	answer := -1
	for i, c := range q.ChoicesFor(results) {
		if c.Matches(run) {
			if answer >= 0 {
				return 0, fmt.Errorf("lesson: question %s on %s: choices %d and %d both match", q.ID, q.Run, answer+1, i+1)
			}
			answer = i
		}
	}
	if answer < 0 {
		return 0, fmt.Errorf("lesson: question %s on %s under %s: no choice matches the run", q.ID, q.Run, q.Semantics)
	}
	return answer, nil
}

// OpClass is the class operation i of o came to: ClassNone (lost),
// ClassMany (two or more effects) or ClassOnce — what the outcome table's
// verdict says, for a drawing of the run's operations.
func OpClass(o *sim.Outcome, i int) string { return opClass(o, i) }
