package sim

// Observation tells the checker where to count: which sends are attempts,
// which deliveries are handler invocations, and which sinks hold effects.
// Effects are counted on the observed sinks and nowhere else.
type Observation struct {
	Origin    NodeID  // the node whose sends of Request count as attempts
	Request   MsgKind // the request (or delivery) message kind
	Processor NodeID  // the node whose deliveries of Request count as invocations
	// Sinks are the observed sinks, in the order reports list them (the
	// order a scenario declares them, never their numbers): at most
	// MaxObservedSinks, a repeated sink counted once.
	Sinks []SinkID
	// Refusals are the final statuses the scenario declares as its
	// designed answer (400 without a key, 422 on a reused key, 503 when
	// failing closed): an operation answered with one and never applied
	// is refused (OpRefused), not lost, and does not break a promise.
	Refusals []int32
	// InProgress are the answer statuses that tell the client its
	// operation is still in flight and to ask again (409 while a key is
	// PROCESSING): an operation with no effect and no final answer whose
	// last answer from the processor was one when a run finishes never
	// completes (OpNeverCompletes) — a liveness failure, not a loss in
	// the network. Empty: nothing is classified so.
	InProgress []int32
}

// MaxObservedSinks bounds how many sinks one scenario observes.
const MaxObservedSinks = 4

// Verdict is the cardinality class of one operation's effects.
type Verdict uint8

// The verdicts.
const (
	Lost        Verdict = iota + 1 // 0 effects
	ExactlyOnce                    // 1 effect
	Duplicated                     // more than 1 effect
)

// String returns "lost", "exactly-once" or "duplicated".
func (v Verdict) String() string {
	switch v {
	case Lost:
		return "lost"
	case ExactlyOnce:
		return "exactly-once"
	case Duplicated:
		return "duplicated"
	}
	return "unknown"
}

// VerdictOf classifies an operation by the smallest and largest effect
// count over its observed sinks: more than one anywhere is a duplicate,
// none somewhere is a loss (a skipped step of a multi-step operation).
func VerdictOf(minEffects, maxEffects int32) Verdict {
	switch {
	case maxEffects > 1:
		return Duplicated
	case minEffects <= 0:
		return Lost
	}
	return ExactlyOnce
}

// Status is the three-valued answer to "did the promise hold?": a run that
// hit its budget before a violation showed is Unknown, never a pass.
type Status uint8

// The statuses.
const (
	Held Status = iota + 1
	Violated
	Unknown
)

// String returns "held", "violated" or "unknown".
func (s Status) String() string {
	switch s {
	case Held:
		return "held"
	case Violated:
		return "violated"
	case Unknown:
		return "unknown"
	}
	return "?"
}

const maxDistinct = 4

// OpTally is what the checker folded from the trace for one operation.
type OpTally struct {
	Attempts   int32                   // sends of the request by the origin (retries and redeliveries included)
	Deliveries int32                   // handler invocations at the processor
	Sinks      [MaxObservedSinks]int32 // effects per observed sink, in sink order
	Outcomes   int32                   // final results accepted by the client
	distinct   [maxDistinct]outcomeResult
	nDistinct  int32
	// lastAnswer is the status of the last answer the origin got from the
	// processor for the operation (tracked only when the observation
	// declares InProgress statuses). It is not part of the explorer's
	// state fingerprint: no verdict reads it, only the classification of
	// a finished run's operations.
	lastAnswer int32
}

// MaxEffects returns the largest effect count over the observed sinks.
func (t *OpTally) MaxEffects(sinks int) int32 {
	m := int32(0)
	for i := 0; i < sinks; i++ {
		m = max(m, t.Sinks[i])
	}
	return m
}

// MinEffects returns the smallest effect count over the observed sinks.
func (t *OpTally) MinEffects(sinks int) int32 {
	if sinks == 0 {
		return 0
	}
	m := t.Sinks[0]
	for i := 1; i < sinks; i++ {
		m = min(m, t.Sinks[i])
	}
	return m
}

// outcomeResult is one final result a client accepted: its value and its
// status, told apart as a pair.
type outcomeResult struct {
	value  int64
	status int32
}

// DistinctOutcomes returns how many different final results the client saw
// for the operation (saturating at a small cap).
func (t *OpTally) DistinctOutcomes() int32 { return t.nDistinct }

// FaultCounts counts the faults that hit a run, indexed by choice kind
// (the fault table, faults.go), and the drops that are consequences, not
// choices: a partition window, a crashed receiver.
type FaultCounts struct {
	ByKind    [MaxChoiceKinds]int
	Partition int
	Down      int
}

// Total returns the number of injected faults (partition and down drops are
// consequences, not choices, and preemptions are interleavings, not faults:
// none of them is counted).
func (f FaultCounts) Total() int {
	n := 0
	for k, c := range f.ByKind {
		if ChoiceKind(k).IsReorder() {
			continue // an interleaving is a schedule, not an injected fault (only built-in kinds are)
		}
		n += c
	}
	return n
}

// Of returns the count of faults of choice kind k.
func (f FaultCounts) Of(k ChoiceKind) int {
	if k < MaxChoiceKinds {
		return f.ByKind[k]
	}
	return 0
}

// Add counts n more faults of choice kind k.
func (f *FaultCounts) Add(k ChoiceKind, n int) {
	if k < MaxChoiceKinds {
		f.ByKind[k] += n
	}
}

// Checker folds a trace, event by event, into per-operation tallies. It is
// a Recorder, so it works on a live stream or on a saved trace alike.
type Checker struct {
	kinds  *Registry // the event kinds the trace's events are of (nil: the built-in ones)
	obs    Observation
	sinks  [MaxObservedSinks]SinkID // the observed sinks; OpTally.Sinks is parallel
	nsinks int
	ops    []OpTally // index 0 unused
	faults FaultCounts
}

// UseKinds makes the checker read events as kinds of r (the registry of
// the trace's topology); a checker reads the built-in kinds otherwise.
func (c *Checker) UseKinds(r *Registry) { c.kinds = r }

// NewChecker returns a checker for operations 1..ops.
func NewChecker(obs Observation, ops int) *Checker {
	c := &Checker{obs: obs, ops: make([]OpTally, ops+1)}
	for _, s := range obs.Sinks {
		if c.slotOf(s) < 0 && c.nsinks < MaxObservedSinks {
			c.sinks[c.nsinks] = s
			c.nsinks++
		}
	}
	return c
}

// slotOf returns the index of sink label in OpTally.Sinks, or -1 if it is
// not observed.
func (c *Checker) slotOf(label SinkID) int {
	for i, s := range c.sinks[:c.nsinks] {
		if s == label {
			return i
		}
	}
	return -1
}

// ObservedSinks returns how many sinks the checker counts.
func (c *Checker) ObservedSinks() int { return c.nsinks }

func (c *Checker) tally(op OpID) *OpTally {
	if op <= 0 || int(op) >= len(c.ops) {
		return nil
	}
	return &c.ops[op]
}

// Ignores reports whether Record ignores every event of kind k: a world
// that nothing else reads the trace of only counts such events (see
// World.quiet). It must agree with Record's switch (TestCheckerIgnores).
func (c *Checker) Ignores(k EventKind) bool {
	switch k {
	case EvTimerFire, EvRestart, EvStoreGet, EvStorePut, EvStoreDelete, EvResume:
		return true
	}
	return false
}

// Record implements Recorder.
func (c *Checker) Record(e *Event) {
	switch e.Kind {
	case EvSend:
		c.sent(e.Node, e.Msg.Kind, e.Msg.Op)
	case EvDeliver:
		c.delivered(e.Node, &e.Msg)
	case EvEffect:
		c.effect(SinkID(e.Label), e.Msg.Op)
	case EvOutcome:
		c.outcome(e.Msg.Op, e.Msg.Value, e.Msg.Status)
	case EvDrop:
		c.dropped(e.Reason)
	default:
		if ev := c.kinds.or().events; int(e.Kind) < len(ev) {
			if k := ev[e.Kind].Fault; k != 0 {
				c.faults.ByKind[k]++ // the fault the event records (the event table)
			}
		}
	}
}

// The parts of Record a quiet world (World.quiet) calls without building
// the event: each takes the fields of the event that Record reads.

// sent records an EvSend by node of a message of kind for op.
func (c *Checker) sent(node NodeID, kind MsgKind, op OpID) {
	if node == c.obs.Origin && kind == c.obs.Request {
		if t := c.tally(op); t != nil {
			t.Attempts++
		}
	}
}

// delivered records an EvDeliver of m to node: an invocation when it is
// a request to the processor, an answer when it comes from the processor
// to the origin (kept only for InProgress).
func (c *Checker) delivered(node NodeID, m *Message) {
	switch {
	case node == c.obs.Processor && m.Kind == c.obs.Request:
		if t := c.tally(m.Op); t != nil {
			t.Deliveries++
		}
	case len(c.obs.InProgress) > 0 && node == c.obs.Origin && m.From == c.obs.Processor && m.Status != 0:
		if t := c.tally(m.Op); t != nil {
			t.lastAnswer = m.Status
		}
	}
}

// effect records an EvEffect of op on sink.
func (c *Checker) effect(sink SinkID, op OpID) {
	if i := c.slotOf(sink); i >= 0 {
		if t := c.tally(op); t != nil {
			t.Sinks[i]++
		}
	}
}

// outcome records an EvOutcome: the client accepted value with status
// for op.
func (c *Checker) outcome(op OpID, value int64, status int32) {
	if t := c.tally(op); t != nil {
		t.Outcomes++
		res := outcomeResult{value: value, status: status}
		seen := false
		for i := int32(0); i < t.nDistinct; i++ {
			seen = seen || t.distinct[i] == res
		}
		if !seen && t.nDistinct < maxDistinct {
			t.distinct[t.nDistinct] = res
			t.nDistinct++
		}
	}
}

// dropped records an EvDrop for reason.
func (c *Checker) dropped(reason DropReason) {
	switch reason {
	case DropLoss:
		c.faults.ByKind[ChoiceLoss]++
	case DropPartition:
		c.faults.Partition++
	case DropDown:
		c.faults.Down++
	}
}

// Tally returns the tally of op (1-based).
func (c *Checker) Tally(op OpID) OpTally { return c.ops[op] }

// Ops returns the number of operations.
func (c *Checker) Ops() int { return len(c.ops) - 1 }

// Faults returns the fault counts so far.
func (c *Checker) Faults() FaultCounts { return c.faults }

// copyFrom makes c an independent copy of src.
func (c *Checker) copyFrom(src *Checker) {
	c.obs, c.sinks, c.nsinks, c.kinds = src.obs, src.sinks, src.nsinks, src.kinds
	c.ops = append(c.ops[:0], src.ops...)
	c.faults = src.faults
}

// Judge evaluates promise over the tallies. finished says whether
// the run reached quiescence; an unfinished run can violate a promise (a
// duplicate never goes away) but never holds one: it is Unknown.
func (c *Checker) Judge(promise Promise, finished bool) (Status, string) {
	status, why := c.JudgeReason(promise, finished)
	return status, why.String()
}

// JudgeReason is Judge with the reason kept as data, for a report to
// render in its reader's language.
func (c *Checker) JudgeReason(promise Promise, finished bool) (Status, Reason) {
	f := c.find(promise)
	switch f.kind {
	case findingDuplicate:
		return Violated, Reason{Kind: ReasonDuplicate, Op: f.op, N: f.n, Promise: promise}
	case findingDivergent:
		return Violated, Reason{Kind: ReasonDivergent, Op: f.op, N: f.n, Promise: promise}
	case findingMissing:
		if !finished {
			return Unknown, Reason{Kind: ReasonNoEffectYet, Op: f.op, Promise: promise}
		}
		if t := &c.ops[f.op]; c.classify(t, true) == OpNeverCompletes {
			return Violated, Reason{Kind: ReasonNeverDone, Op: f.op, N: t.lastAnswer, Promise: promise}
		}
		return Violated, Reason{Kind: ReasonNoEffect, Op: f.op, Promise: promise}
	}
	if !finished {
		// Even "≥ 1" with an effect for every operation is not shown: a
		// promise is judged on a finished run, and every view (run,
		// matrix, sweep, explore) must give a cut run the same answer.
		return Unknown, Reason{Kind: ReasonUnfinished, Promise: promise}
	}
	return Held, Reason{Promise: promise}
}

// status is Judge without the reason: the explorer asks it of every
// state and formats a reason only for the violation it reports.
func (c *Checker) status(promise Promise, finished bool) Status {
	switch c.find(promise).kind {
	case findingDuplicate, findingDivergent:
		return Violated
	case findingMissing:
		if finished {
			return Violated
		}
	}
	if !finished {
		return Unknown
	}
	return Held
}

// findingKind is what Checker.find saw first.
type findingKind uint8

const (
	findingNone      findingKind = iota
	findingDuplicate             // an operation with more than one effect
	findingDivergent             // an operation with different results for one key
	findingMissing               // an operation with no effect (a violation once finished)
)

// finding is the first reason, in operation order, that promise does
// not hold yet: the operation and the count the reason quotes.
type finding struct {
	kind findingKind
	op   OpID
	n    int32
}

// find scans the tallies as Judge reads them: the first duplicate or
// divergent operation wins at once; otherwise the first operation with
// no effect.
func (c *Checker) find(promise Promise) finding {
	missing := OpID(0)
	for i := 1; i < len(c.ops); i++ {
		t := &c.ops[i]
		op := OpID(i)
		if hi := t.MaxEffects(c.nsinks); hi > 1 && promise != AtLeastOne {
			return finding{findingDuplicate, op, hi}
		}
		if promise == ExactlyOne && t.nDistinct > 1 {
			return finding{findingDivergent, op, t.nDistinct}
		}
		if t.MinEffects(c.nsinks) == 0 && promise != AtMostOne && missing == 0 && !(t.MaxEffects(c.nsinks) == 0 && t.refused(c.obs.Refusals)) {
			missing = op
		}
	}
	if missing != 0 {
		return finding{findingMissing, missing, 0}
	}
	return finding{}
}
