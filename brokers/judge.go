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
	r.checker.UseKinds(cfg.Topology.Registry())
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
	return r.checker.Outcome(sim.ExternalRun{Semantics: cfg.Semantics, Finished: finished, Events: r.n,
		EndTime: sim.Time(elapsed / time.Millisecond), Digest: r.digest, Invariants: r.invs})
}
