package sim

// ExternalRun is a run the engine did not make — a live run over HTTP, a
// run on a real broker — whose events fed a Checker: what its Outcome
// needs beside the checker's tallies.
type ExternalRun struct {
	Semantics  Semantics
	Finished   bool // it came to rest; else it was cut by its time budget
	Events     int
	EndTime    Time
	Digest     Digest
	Invariants []Invariant
	Metrics    []Metric
}

// Outcome judges r as the engine judges its own runs: per operation its
// attempts, deliveries, effects (per sink, with several) and outcome
// class, the semantics' promise over them, then the invariants.
func (c *Checker) Outcome(r ExternalRun) *Outcome {
	o := &Outcome{Semantics: r.Semantics, End: Quiescent, Events: r.Events, EndTime: r.EndTime, Faults: c.Faults(), Digest: r.Digest}
	if !r.Finished {
		o.End = TimeBudget
	}
	n := c.ObservedSinks()
	for i := 1; i <= c.Ops(); i++ {
		t := c.Tally(OpID(i))
		res := OpResult{Op: OpID(i), Attempts: t.Attempts, Deliveries: t.Deliveries, Effects: t.MaxEffects(n),
			Outcomes: t.Outcomes, DistinctOutcomes: t.DistinctOutcomes(), Verdict: VerdictOf(t.MinEffects(n), t.MaxEffects(n)),
			Outcome: c.OpOutcome(OpID(i), r.Finished)}
		if n > 1 {
			res.SinkEffects = append([]int32(nil), t.Sinks[:n]...)
		}
		o.Ops = append(o.Ops, res)
	}
	promise := r.Semantics.Promise()
	o.Status, o.Reason = c.JudgeReason(promise, r.Finished)
	o.Guarantee = o.Status // the semantics' own promise, before the invariants below
	if o.Status != Violated {
		for _, inv := range r.Invariants {
			if v := inv.Violation(r.Finished); v != "" {
				o.Status, o.Reason = Violated, Reason{Kind: ReasonInvariant, Promise: promise, Invariant: inv.Name(), Detail: v, Message: DetailOf(inv, r.Finished)}
				break
			}
		}
	}
	o.Why = o.Reason.String()
	for _, m := range r.Metrics {
		o.Metrics = append(o.Metrics, MetricValue{Name: m.Name(), Value: m.Value()})
	}
	for _, inv := range r.Invariants {
		d := DetailOf(inv, r.Finished)
		_, live := inv.(LivenessInvariant)
		o.Invariants = append(o.Invariants, InvariantResult{Name: inv.Name(), Violation: d.English, Detail: d, Liveness: live})
	}
	return o
}
