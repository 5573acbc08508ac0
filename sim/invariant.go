package sim

// An Invariant is a scenario-specific property checked over the trace
// besides effect cardinality: agreement (Two Generals), isolation
// (read_committed never shows an aborted record), fencing (a zombie
// producer's writes are rejected). Like the checker it is a fold over the
// event stream, so it never looks inside a node.
//
// Its state must be copyable and encodable, because the explorer snapshots
// and fingerprints whole worlds.
type Invariant interface {
	Recorder
	// Name names the property, e.g. "agreement".
	Name() string
	// Violation describes the first violation, or returns "". finished
	// says whether the run reached quiescence (some properties can only be
	// judged at the end).
	Violation(finished bool) string
	// Clone returns an independent copy.
	Clone() Invariant
	// AppendState appends a canonical encoding of the state to b.
	AppendState(b []byte) []byte
}

// A LivenessInvariant is an invariant that says something must
// eventually happen — an open transaction ends, a held record becomes
// readable. It is violated only at the end of a finished run, where
// nothing is left to happen, and that violation is a liveness failure: a
// run with a liveness phase (Config.FaultsUntil) does not settle
// (LivenessOf).
type LivenessInvariant interface {
	Invariant
	// Eventually marks the invariant as a liveness property.
	Eventually()
}

// InvariantResult is one invariant's verdict at the end of a run.
type InvariantResult struct {
	Name      string
	Violation string    // "" when it held
	Detail    Violation // Violation as data, for a report in another language
	Liveness  bool      // a LivenessInvariant: its violation means the run never settles
}

// A Metric is a number folded from the trace, e.g. the largest backlog of
// unknown outcomes. Sweeps average it per point. Metrics are not part of a
// world's state: explorers ignore them.
type Metric interface {
	Recorder
	Name() string
	Value() float64
}

// MetricValue is one metric at the end of a run.
type MetricValue struct {
	Name  string
	Value float64
}
