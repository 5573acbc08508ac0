package sim

// The outcome classification: what each operation came to for the person
// who asked for it, and what a whole run came to. It is computed here,
// beside the checker, from the checker's tallies (so from the trace) and
// the scenario's declarations (Observation.Refusals), so that the
// simulator, the lab and live mode classify alike and every report only
// renders it. It refines the three-valued Verdict, which stays as it is.

// OpOutcome is what one operation came to, in the customer's terms.
// Verdict counts effects; OpOutcome also tells a designed refusal from a
// loss and an operation an unfinished run never started from one it lost.
type OpOutcome uint8

// The operation outcomes.
const (
	// OpLost: the operation was started and nothing happened on any
	// observed sink, and the client got no designed refusal.
	OpLost OpOutcome = iota + 1
	// OpExactlyOnce: one effect on every observed sink.
	OpExactlyOnce
	// OpDuplicated: more than one effect on some observed sink.
	OpDuplicated
	// OpRefused: no effect, and the client accepted a final answer whose
	// status the scenario declares as the designed refusal (a 400 for a
	// missing key, a 422 for a reused one, a 503 when failing closed):
	// the service did what it should, and the client was told.
	OpRefused
	// OpNotStarted: an unfinished run (cut by a budget) never sent the
	// operation's request and nothing happened for it.
	OpNotStarted
	// OpPending: an unfinished run sent the request but was cut before
	// any effect or answer: its fate is unknown, not a loss.
	OpPending
	// OpPartial: an operation observed on several sinks took effect on
	// some and not on the others (one general attacked, the other did
	// not; one step of a multi-step operation skipped). Its Verdict is
	// Lost; its largest effect count is one.
	OpPartial
	// OpNeverCompletes: a finished run left the operation with no effect
	// and no final answer, and the last answer the client got said "in
	// progress, ask again" (a status the scenario declares in
	// observe.in-progress: a 409 for a key stuck PROCESSING). Every retry
	// would get the same: a liveness violation, not a message lost. Its
	// Verdict is Lost.
	OpNeverCompletes
)

// String returns the JSON spelling: "lost", "exactly-once", "duplicated",
// "refused", "not-started", "pending", "partial" or "never-completes".
func (o OpOutcome) String() string {
	switch o {
	case OpLost:
		return "lost"
	case OpExactlyOnce:
		return "exactly-once"
	case OpDuplicated:
		return "duplicated"
	case OpRefused:
		return "refused"
	case OpNotStarted:
		return "not-started"
	case OpPending:
		return "pending"
	case OpPartial:
		return "partial"
	case OpNeverCompletes:
		return "never-completes"
	}
	return "unknown"
}

// Good reports whether the outcome is what the customer should get: once,
// or refused by design.
func (o OpOutcome) Good() bool { return o == OpExactlyOnce || o == OpRefused }

// OpOutcomes lists every operation outcome in the order reports count
// them.
func OpOutcomes() []OpOutcome {
	return []OpOutcome{OpLost, OpNeverCompletes, OpPartial, OpExactlyOnce, OpRefused, OpDuplicated, OpPending, OpNotStarted}
}

// ClassifyOp is the outcome of an operation from its tally: sinks is how
// many sinks are observed, refusals the statuses the scenario declares as
// designed refusals, finished whether the run reached quiescence. It
// leaves out OpNeverCompletes, which needs the observation's InProgress
// statuses (ClassifyOpIn).
func ClassifyOp(t *OpTally, sinks int, refusals []int32, finished bool) OpOutcome {
	hi, lo := t.MaxEffects(sinks), t.MinEffects(sinks)
	switch {
	case hi > 1:
		return OpDuplicated
	case lo >= 1:
		return OpExactlyOnce
	case hi == 1:
		return OpPartial
	case t.refused(refusals):
		return OpRefused
	case !finished && t.Attempts == 0:
		return OpNotStarted
	case !finished && t.Outcomes == 0:
		return OpPending
	}
	return OpLost
}

// ClassifyOpIn is ClassifyOp under the whole observation: a lost
// operation of a finished run whose last answer was one of
// obs.InProgress, with no final answer, never completes.
func ClassifyOpIn(t *OpTally, sinks int, obs *Observation, finished bool) OpOutcome {
	k := ClassifyOp(t, sinks, obs.Refusals, finished)
	if k == OpLost && finished && t.Outcomes == 0 && t.lastAnswer != 0 {
		for _, s := range obs.InProgress {
			if t.lastAnswer == s {
				return OpNeverCompletes
			}
		}
	}
	return k
}

// classify is ClassifyOpIn under the checker's observation.
func (c *Checker) classify(t *OpTally, finished bool) OpOutcome {
	return ClassifyOpIn(t, c.nsinks, &c.obs, finished)
}

// refused reports whether the client accepted a final answer with one of
// the refusal statuses.
func (t *OpTally) refused(refusals []int32) bool {
	for i := int32(0); i < t.nDistinct; i++ {
		for _, s := range refusals {
			if t.distinct[i].status == s {
				return true
			}
		}
	}
	return false
}

// OpOutcome returns the outcome of op (1-based) on the trace so far.
func (c *Checker) OpOutcome(op OpID, finished bool) OpOutcome {
	t := c.tally(op)
	if t == nil {
		return OpLost
	}
	return c.classify(t, finished)
}

// RunEnd is what a whole run came to, beside its operations: completed,
// an invariant violated (named in RunOutcome.Invariants), or never
// completed (a liveness failure: cut by a budget before quiescence).
type RunEnd uint8

// The run ends.
const (
	RunCompleted         RunEnd = iota + 1 // finished, every invariant held
	RunInvariantViolated                   // some invariant was violated (they are named)
	RunNeverCompletes                      // cut by a budget: it did not finish (a livelock, an endless retry)
)

// String returns "completed", "invariant-violated" or "never-completes".
func (e RunEnd) String() string {
	switch e {
	case RunCompleted:
		return "completed"
	case RunInvariantViolated:
		return "invariant-violated"
	case RunNeverCompletes:
		return "never-completes"
	}
	return "unknown"
}

// RunOutcome is the outcome of one run: how it ended, the invariants it
// violated (by name, in declaration order), and how many operations came
// to each OpOutcome. A violated invariant wins over an unfinished run: it
// will not go away.
type RunOutcome struct {
	End        RunEnd
	Invariants []string          // the violated invariants' names
	Counts     map[OpOutcome]int // operations per outcome (absent: none)
}

// Count returns how many operations came to k.
func (r RunOutcome) Count(k OpOutcome) int { return r.Counts[k] }

// RunOutcome classifies the run (see RunOutcome).
func (o *Outcome) RunOutcome() RunOutcome {
	r := RunOutcome{End: RunCompleted, Counts: map[OpOutcome]int{}}
	for i := range o.Ops {
		r.Counts[o.Ops[i].Class()]++
	}
	for _, inv := range o.Invariants {
		if inv.Violation != "" {
			r.Invariants = append(r.Invariants, inv.Name)
		}
	}
	switch {
	case len(r.Invariants) > 0:
		r.End = RunInvariantViolated
	case !o.Finished():
		r.End = RunNeverCompletes
	}
	return r
}

// Class returns the operation's outcome: Outcome when set, else the one
// its Verdict implies (an OpResult built by hand without the checker).
func (r *OpResult) Class() OpOutcome {
	if r.Outcome != 0 {
		return r.Outcome
	}
	switch r.Verdict {
	case ExactlyOnce:
		return OpExactlyOnce
	case Duplicated:
		return OpDuplicated
	}
	return OpLost
}
