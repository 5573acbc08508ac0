package sim

// The liveness phase, after TigerBeetle's simulator: a run whose faults
// stop at Config.FaultsUntil must then finish — every operation reaching
// a final outcome — within Config.Settle. Safety (effects per operation)
// is judged as ever; this is a verdict of its own, on the same outcome,
// so a design that never loses nor duplicates but can leave a key stuck
// forever (a PROCESSING row with no lease) is caught here.

// Liveness is a run's liveness verdict.
type Liveness struct {
	FaultsUntil Time // when the faults stopped
	Settle      Time // the bound the run had after that (0: its time budget)
	Settled     bool // it finished, and every operation has a final outcome
	EndTime     Time // when it finished, or was cut
	// Stuck are the operations without a final outcome (pending, never
	// completing, not started), in order.
	Stuck []OpID
	// Outcomes are the outcomes of Stuck, parallel to it.
	Outcomes []OpOutcome
	// Unmet are the liveness invariants (LivenessInvariant) the finished
	// run violates: what it waits for forever, though every operation has
	// an outcome (a committed record no read_committed reader will ever
	// reach is lost to it, and the reason is a transaction nobody ends).
	Unmet []InvariantResult
}

// LivenessOf is the liveness verdict of o, a run of cfg; false when cfg
// has no liveness phase (FaultsUntil is 0).
func LivenessOf(cfg *Config, o *Outcome) (Liveness, bool) {
	if cfg.FaultsUntil == 0 {
		return Liveness{}, false
	}
	l := Liveness{FaultsUntil: cfg.FaultsUntil, Settle: cfg.Settle, EndTime: o.EndTime}
	for i := range o.Ops {
		switch oc := o.Ops[i].Outcome; oc {
		case OpPending, OpNeverCompletes, OpNotStarted:
			l.Stuck = append(l.Stuck, o.Ops[i].Op)
			l.Outcomes = append(l.Outcomes, oc)
		}
	}
	for _, inv := range o.Invariants {
		if inv.Liveness && inv.Violation != "" {
			l.Unmet = append(l.Unmet, inv)
		}
	}
	l.Settled = o.Finished() && len(l.Stuck) == 0 && len(l.Unmet) == 0
	return l, true
}
