package sim

// OpResult is the checker's view of one operation at the end of a run.
type OpResult struct {
	Op               OpID
	Attempts         int32
	Deliveries       int32
	Effects          int32   // the largest count over the observed sinks
	SinkEffects      []int32 // per observed sink, in Observation.Sinks order (only when more than one)
	Outcomes         int32
	DistinctOutcomes int32
	Verdict          Verdict
	// Outcome is what the operation came to for the customer (see
	// OpOutcome): Verdict with designed refusals, unstarted, pending
	// and partly applied operations told apart.
	Outcome OpOutcome
}

// Outcome is the result of one run under one semantics.
type Outcome struct {
	Semantics Semantics
	End       End
	Events    int
	EndTime   Time
	Ops       []OpResult
	Faults    FaultCounts
	Status    Status // did the promise of Semantics and every invariant hold?
	// Guarantee is whether the promise of Semantics alone held (no
	// invariant counted): what a report shows as the semantics'
	// guarantee, apart from the invariants and from the customer's
	// outcome. Zero in an Outcome built without it.
	Guarantee  Status
	Why        string // the first violation, or why Unknown, in English
	Reason     Reason // Why as data, for a report in another language
	Invariants []InvariantResult
	Metrics    []MetricValue
	Digest     Digest
}

// Finished reports whether the run reached quiescence within its budgets.
func (o *Outcome) Finished() bool { return o.End == Quiescent }

// Count returns how many operations have verdict v.
func (o *Outcome) Count(v Verdict) int {
	n := 0
	for i := range o.Ops {
		if o.Ops[i].Verdict == v {
			n++
		}
	}
	return n
}

// MaxEffects returns the largest effect count of any operation.
func (o *Outcome) MaxEffects() int32 {
	m := int32(0)
	for i := range o.Ops {
		m = max(m, o.Ops[i].Effects)
	}
	return m
}

// Outcome summarises the run so far (call it after Run for a final one).
func (w *World) Outcome() *Outcome {
	o := &Outcome{}
	w.outcomeInto(o)
	return o
}

// outcomeInto writes the summary into o, reusing the memory of its slices.
func (w *World) outcomeInto(o *Outcome) {
	ops, invs, metrics := o.Ops[:0], o.Invariants[:0], o.Metrics[:0]
	if ops == nil {
		ops = make([]OpResult, 0, w.checker.Ops())
	}
	*o = Outcome{
		Semantics: w.cfg.Semantics,
		End:       w.end,
		Events:    int(w.events),
		EndTime:   w.now,
		Faults:    w.checker.faults,
		Digest:    w.digest,
	}
	for i := 1; i <= w.checker.Ops(); i++ {
		t := &w.checker.ops[i]
		n := w.checker.nsinks
		var sinks []int32
		if len(ops) < cap(ops) {
			sinks = ops[:len(ops)+1][len(ops)].SinkEffects
		}
		r := OpResult{
			Op: OpID(i), Attempts: t.Attempts, Deliveries: t.Deliveries, Effects: t.MaxEffects(n),
			Outcomes: t.Outcomes, DistinctOutcomes: t.nDistinct, Verdict: VerdictOf(t.MinEffects(n), t.MaxEffects(n)),
			Outcome: w.checker.classify(t, w.end == Quiescent),
		}
		if n > 1 {
			r.SinkEffects = append(sinks[:0], t.Sinks[:n]...)
		}
		ops = append(ops, r)
	}
	o.Ops = ops
	o.Status, o.Reason = w.JudgeReason(w.cfg.Semantics.Promise())
	o.Why = o.Reason.String()
	o.Guarantee = w.checker.status(w.cfg.Semantics.Promise(), w.end == Quiescent)
	for _, m := range w.metrics {
		metrics = append(metrics, MetricValue{Name: m.Name(), Value: m.Value()})
	}
	for _, inv := range w.invs {
		d := DetailOf(inv, w.end == Quiescent)
		_, live := inv.(LivenessInvariant)
		invs = append(invs, InvariantResult{Name: inv.Name(), Violation: d.English, Detail: d, Liveness: live})
	}
	if len(metrics) > 0 {
		o.Metrics = metrics
	}
	if len(invs) > 0 {
		o.Invariants = invs
	}
}

// Judge evaluates the promise of the semantics and every invariant on the
// world as it is now. A violated invariant makes the run Violated even when
// the cardinality promise held.
func (w *World) Judge() (Status, string) {
	return w.JudgeAgainst(w.cfg.Semantics.Promise())
}

// JudgeAgainst is Judge with another promise than the semantics' own: the
// explorer asks "is every operation exactly once?" even of at-least-once.
func (w *World) JudgeAgainst(promise Promise) (Status, string) {
	status, why := w.JudgeReason(promise)
	return status, why.String()
}

// JudgeReason is JudgeAgainst with the reason kept as data.
func (w *World) JudgeReason(promise Promise) (Status, Reason) {
	finished := w.end == Quiescent
	status, why := w.checker.JudgeReason(promise, finished)
	if status == Violated {
		return status, why
	}
	for _, inv := range w.invs {
		if v := inv.Violation(finished); v != "" {
			return Violated, Reason{Kind: ReasonInvariant, Promise: promise, Invariant: inv.Name(), Detail: v, Message: DetailOf(inv, finished)}
		}
	}
	return status, why
}

// JudgeStatus is JudgeAgainst without the reason, for a search's hot
// path; it returns the same status.
func (w *World) JudgeStatus(promise Promise) Status {
	finished := w.end == Quiescent
	status := w.checker.status(promise, finished)
	if status == Violated {
		return status
	}
	for _, inv := range w.invs {
		if inv.Violation(finished) != "" {
			return Violated
		}
	}
	return status
}
