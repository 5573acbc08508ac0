// Package scenarios holds the roles (clients, services, gateways, brokers,
// consumers) as pure state machines, and the catalog of scenarios built
// from them: topology, workload, default faults, parameters and the
// semantics each supports.
package scenarios

import (
	"fmt"
	"math"
	"slices"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// Faults is the fault profile a user sets with --loss, --ack-loss, --dup,
// --slow and --crash. The zero value means no faults.
type Faults struct {
	LossProbability      float64 `json:"loss"`      // requests and deliveries lost
	AckLossProbability   float64 `json:"ack_loss"`  // responses and acknowledgements lost
	DuplicateProbability float64 `json:"duplicate"` // any message delivered twice
	SlowProbability      float64 `json:"slow"`      // a message overtaken by the timer waiting for it
	CrashProbability     float64 `json:"crash"`     // the service/consumer crashes at each crash point
}

// Validate reports the first probability outside [0,1].
func (f Faults) Validate() error {
	for _, p := range []struct {
		flag string
		v    float64
	}{
		{"loss", f.LossProbability}, {"ack-loss", f.AckLossProbability}, {"dup", f.DuplicateProbability},
		{"slow", f.SlowProbability}, {"crash", f.CrashProbability},
	} {
		if math.IsNaN(p.v) || p.v < 0 || p.v > 1 {
			return fmt.Errorf("--%s %v: a probability must be within [0,1]", p.flag, p.v)
		}
	}
	return nil
}

// Settings are the inputs of one run besides the chooser.
type Settings struct {
	Semantics sim.Semantics
	Ops       int
	Faults    Faults
	Params    map[string]string // --set overrides; defaults fill the rest
	MaxEvents int               // 0 = the engine's default
	MaxTime   sim.Time          // 0 = the engine's default
}

// Scenario is one entry of the catalog.
type Scenario struct {
	Name      string
	Topology  string // http, queue, kafka, flink, two-generals
	Summary   string // one line for `once list`
	Semantics []sim.Semantics
	Params    []Param
	Faults    Faults // defaults that make the lesson visible
	Ops       int    // default number of operations
	build     func(b *builder) error
}

// Supports reports whether the scenario runs under sem.
func (s *Scenario) Supports(sem sim.Semantics) bool { return slices.Contains(s.Semantics, sem) }

// builder collects the pieces of a sim.Config while a scenario builds it.
type builder struct {
	set     Settings
	params  Values
	nodes   []sim.NodeSpec
	roles   []sim.Node
	net     *network.Network
	observe sim.Observation
}

// Config turns settings into an engine configuration, validating every
// user input on the way.
func (s *Scenario) Config(set Settings) (*sim.Config, error) {
	if !s.Supports(set.Semantics) {
		return nil, fmt.Errorf("scenario %s does not support semantics %s", s.Name, set.Semantics)
	}
	if set.Ops < 1 || set.Ops > 100_000 {
		return nil, fmt.Errorf("--ops %d: want 1..100000", set.Ops)
	}
	if err := set.Faults.Validate(); err != nil {
		return nil, err
	}
	vals, err := ResolveParams(s.Params, set.Params)
	if err != nil {
		return nil, err
	}
	b := &builder{set: set, params: vals}
	if err := s.build(b); err != nil {
		return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
	}
	if err := b.net.Validate(); err != nil {
		return nil, err
	}
	topo := newTopology(b.nodes...)
	return &sim.Config{
		Topology:  topo,
		Nodes:     b.roles,
		Network:   b.net,
		Observe:   b.observe,
		Ops:       set.Ops,
		Semantics: set.Semantics,
		MaxEvents: set.MaxEvents,
		MaxTime:   set.MaxTime,
	}, nil
}

// Run builds a world for set and runs it to the end with ch answering
// every choice. rec (may be nil) receives the full trace.
func (s *Scenario) Run(set Settings, ch sim.Chooser, rec sim.Recorder) (*sim.Outcome, error) {
	cfg, err := s.Config(set)
	if err != nil {
		return nil, err
	}
	w, err := sim.NewWorld(cfg, ch, rec)
	if err != nil {
		return nil, err
	}
	return w.Run(), nil
}

// add appends a node and returns its id.
func (b *builder) add(spec sim.NodeSpec, role sim.Node) sim.NodeID {
	b.nodes = append(b.nodes, spec)
	b.roles = append(b.roles, role)
	return sim.NodeID(len(b.nodes) - 1)
}

// wire creates the network once every node is added.
func (b *builder) wire() { b.net = network.New(len(b.nodes)) }

// requestLink configures from→to as a request direction: --loss, --dup and
// --slow apply.
func (b *builder) requestLink(from, to sim.NodeID, delay, jitter sim.Time) {
	l := b.net.Link(from, to)
	f := b.set.Faults
	*l = network.Link{
		LossProbability: f.LossProbability, DuplicateProbability: f.DuplicateProbability,
		SlowProbability: f.SlowProbability, Delay: delay, Jitter: jitter, SlowDelay: slowDelay,
	}
}

// responseLink configures from→to as a response direction: --ack-loss,
// --dup and --slow apply.
func (b *builder) responseLink(from, to sim.NodeID, delay, jitter sim.Time) {
	l := b.net.Link(from, to)
	f := b.set.Faults
	*l = network.Link{
		LossProbability: f.AckLossProbability, DuplicateProbability: f.DuplicateProbability,
		SlowProbability: f.SlowProbability, Delay: delay, Jitter: jitter, SlowDelay: slowDelay,
	}
}

// reliableLink configures a FIFO link without faults (e.g. a service and
// its gateway in the same data centre).
func (b *builder) reliableLink(from, to sim.NodeID, delay sim.Time) {
	*b.net.Link(from, to) = network.Link{Delay: delay}
}

// slowDelay is how late a "slow" message arrives: past any retry timeout of
// the catalog, so the retry overtakes it.
const slowDelay sim.Time = 5_000
