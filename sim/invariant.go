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

// InvariantResult is one invariant's verdict at the end of a run.
type InvariantResult struct {
	Name      string
	Violation string    // "" when it held
	Detail    Violation // Violation as data, for a report in another language
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
