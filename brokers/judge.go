package brokers

import (
	"time"

	"github.com/oncesim/once/sim"
)

// recorder folds a broker run's events into the simulator's checker, the
// scenario's invariants and the run's trace, as live's does.
type recorder struct {
	checker *sim.Checker
	invs    []sim.Invariant
	trace   *sim.Trace
	topo    *sim.Topology
	digest  sim.Digest
	n       int
}

func newRecorder(cfg *sim.Config, trace *sim.Trace) *recorder {
	r := &recorder{checker: sim.NewChecker(cfg.Observe, cfg.Ops), trace: trace, topo: cfg.Topology, digest: sim.NewDigest()}
	if cfg.Invariants != nil {
		r.invs = cfg.Invariants()
	}
	return r
}

// Record implements sim.Recorder.
func (r *recorder) Record(e *sim.Event) {
	r.n++
	r.checker.Record(e)
	r.digest = r.digest.Add(r.topo, e)
	for _, inv := range r.invs {
		inv.Record(e)
	}
	if r.trace != nil {
		r.trace.Record(e)
	}
}

// outcome judges the run as the simulator judges one: per operation its
// attempts, deliveries, effects and outcome class, and the semantics'
// promise (then the invariants) over them.
func (r *recorder) outcome(cfg *sim.Config, finished bool, elapsed time.Duration) *sim.Outcome {
	c := r.checker
	o := &sim.Outcome{Semantics: cfg.Semantics, End: sim.Quiescent, Events: r.n,
		EndTime: sim.Time(elapsed / time.Millisecond), Faults: c.Faults(), Digest: r.digest}
	if !finished {
		o.End = sim.TimeBudget
	}
	n := c.ObservedSinks()
	for i := 1; i <= c.Ops(); i++ {
		t := c.Tally(sim.OpID(i))
		o.Ops = append(o.Ops, sim.OpResult{Op: sim.OpID(i), Attempts: t.Attempts, Deliveries: t.Deliveries, Effects: t.MaxEffects(n),
			Outcomes: t.Outcomes, DistinctOutcomes: t.DistinctOutcomes(), Verdict: sim.VerdictOf(t.MinEffects(n), t.MaxEffects(n)),
			Outcome: c.OpOutcome(sim.OpID(i), finished)})
	}
	o.Status, o.Reason = c.JudgeReason(cfg.Semantics.Promise(), finished)
	o.Guarantee = o.Status
	if o.Status != sim.Violated {
		for _, inv := range r.invs {
			if v := inv.Violation(finished); v != "" {
				o.Status, o.Reason = sim.Violated, sim.Reason{Kind: sim.ReasonInvariant, Promise: cfg.Semantics.Promise(),
					Invariant: inv.Name(), Detail: v, Message: sim.DetailOf(inv, finished)}
				break
			}
		}
	}
	o.Why = o.Reason.String()
	for _, inv := range r.invs {
		d := sim.DetailOf(inv, finished)
		o.Invariants = append(o.Invariants, sim.InvariantResult{Name: inv.Name(), Violation: d.English, Detail: d})
	}
	return o
}
