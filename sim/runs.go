package sim

// Runs executes seeded runs of one configuration on one world that it
// reuses from seed to seed: node tables, the event queue, the checker's
// tallies, the chooser's counting table and the outcome keep their memory,
// so a run after the first allocates only what its invariants and metrics
// do and a reason for a verdict that has one. It is what a batch of seeds
// (matrix, sweep) wants; one Runs serves one goroutine.
//
// The trace digest is not computed unless SetDigest(true) asked for it:
// nothing in a batch reads it, and folding it costs about a fifth of a
// run. Every other field of the outcome is the one NewWorld(cfg,
// NewRandom(seed), nil).Run() returns.
type Runs struct {
	w      World
	rng    Random
	swarm  Swarm
	swarms bool // runs draw a fault profile per seed (SetSwarm)
	out    Outcome
	digest bool
}

// NewRuns prepares reusable runs of cfg.
func NewRuns(cfg *Config) (*Runs, error) {
	r := &Runs{}
	w, err := NewWorld(cfg, nil, nil)
	if err != nil {
		return nil, err
	}
	r.w.CopyFrom(w)
	r.w.noDigest = true
	return r, nil
}

// SetDigest says whether the following runs fold the trace digest
// (Outcome.Digest is NewDigest() — the digest of no event — when they
// do not).
func (r *Runs) SetDigest(on bool) {
	r.digest = on
	r.w.noDigest = !on
}

// SetSwarm says whether the following runs are swarm runs: each seed's
// chooser is NewSwarm(seed), not NewRandom(seed).
func (r *Runs) SetSwarm(on bool) { r.swarms = on }

// Run runs seed from the start and returns its outcome. The outcome and
// its slices are reused by the next call: copy what must outlive it.
func (r *Runs) Run(seed uint64) *Outcome {
	if r.swarms {
		r.swarm.Random.reset(seed)
		r.swarm.Profile = NewSwarmProfile(seed)
		r.w.reset(&r.swarm, nil)
	} else {
		r.rng.reset(seed)
		r.w.reset(&r.rng, nil)
	}
	r.w.quiet = !r.digest && len(r.w.invs) == 0 && len(r.w.metrics) == 0
	for r.w.Step() {
	}
	r.w.outcomeInto(&r.out)
	return &r.out
}

// reset makes r the chooser NewRandom(seed) returns, keeping its table.
func (r *Random) reset(seed uint64) {
	r.seed = splitmix(seed)
	r.occur.reset()
}

// reset puts w back at time 0 with every node scheduled to start, as
// NewWorld builds it, keeping the memory of its tables, queue and tallies.
// Invariants and metrics are made anew (they are the config's to build).
func (w *World) reset(ch Chooser, rec Recorder) {
	cfg := w.cfg
	w.chooser, w.rec = ch, rec
	w.now, w.seq, w.msgID, w.events = 0, 0, 0, 0
	w.digest, w.end = NewDigest(), Running
	w.q.clear()
	for i := range w.nodes {
		ns := &w.nodes[i]
		for t := range ns.tables {
			ns.tables[t].Clear()
		}
		ns.down, ns.incarnation, ns.handled = false, 0, 0
		ns.paused, ns.resumeAt, ns.held = false, 0, ns.held[:0]
	}
	clear(w.checker.ops)
	w.checker.faults = FaultCounts{}
	w.invs = w.invs[:0]
	if cfg.Invariants != nil {
		w.invs = cfg.Invariants()
	}
	w.metrics = w.metrics[:0]
	if cfg.Metrics != nil {
		w.metrics = cfg.Metrics()
	}
	w.ctx.w = w
	w.stamp.w = w
	for i := range w.nodes {
		w.scheduleNode(0, itemStart, NodeID(i))
	}
}
