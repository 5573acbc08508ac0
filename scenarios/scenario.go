// Package scenarios is the scenario file format — spec, loader,
// parameters, expectations, fault-plan files — and the catalog of scenarios
// written in it: topology, workload, default faults, parameters and the
// semantics each supports. The roles a scenario is composed of live in the
// families under scenarios/roles, which this package imports
// (families.go) and which never import it.
package scenarios

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Faults is the fault profile a user sets with the fault flags (one per
// entry of sim.FaultKinds: --loss, --ack-loss, …). The zero value means no
// faults.
type Faults = sim.FaultProfile

// Settings are the inputs of one run besides the chooser.
type Settings struct {
	Semantics sim.Semantics
	Ops       int
	Faults    Faults
	Params    map[string]string // --set overrides; defaults fill the rest
	MaxEvents int               // 0 = the engine's default
	MaxTime   sim.Time          // 0 = the engine's default
	// FaultsUntil ends the fault phase at that virtual time and starts
	// the liveness phase (sim.Config.FaultsUntil); 0 = faults throughout.
	FaultsUntil sim.Time
	// Settle bounds the liveness phase (sim.Config.Settle); 0 = the time
	// budget.
	Settle sim.Time
	// Kinds are the fault and event kinds the run's world and renderers
	// name; nil means the built-in ones (sim.Builtin). Faults is indexed
	// by its fault kinds.
	Kinds *sim.Registry
}

// Budget is one budget of a run as a command line (--NAME VALUE) and a
// plan file (NAME VALUE) spell it.
type Budget struct{ Name, Value string }

// Budgets lists the budgets of s that are set (not 0), in the order
// command lines and plan files write them: max-events, max-time,
// faults-until, settle.
func (s Settings) Budgets() []Budget {
	var out []Budget
	if s.MaxEvents > 0 {
		out = append(out, Budget{"max-events", fmt.Sprint(s.MaxEvents)})
	}
	for _, t := range []struct {
		name string
		t    sim.Time
	}{{"max-time", s.MaxTime}, {"faults-until", s.FaultsUntil}, {"settle", s.Settle}} {
		if t.t > 0 {
			out = append(out, Budget{t.name, t.t.String()})
		}
	}
	return out
}

// Scenario is one entry of the catalog, loaded from a scenario file (the
// built-in ones are embedded): topology, workload, parameters, default
// faults, the semantics it supports, what it must show under each, and its
// lesson.
type Scenario struct {
	Name      string
	Topology  string // http, queue, kafka, flink, two-generals, custom
	Summary   string // one line for `once list`
	Semantics []sim.Semantics
	Params    []Param
	Faults    Faults // defaults that make the lesson visible
	// Kinds are the fault and event kinds the file was loaded with
	// (LoadWith), which its worlds carry unless Settings.Kinds says
	// otherwise; nil means the built-in ones.
	Kinds *sim.Registry
	// Catalog holds the roles, invariants, metrics and names the file was
	// loaded with (LoadWith); its worlds' topologies carry its names.
	Catalog         *roles.Catalog
	Ops             int // default number of operations
	Expect          []Expectation
	Lesson          Lesson
	Outcome         OutcomeWords // what an operation's effect count means to the user
	Sweep           SweepHints   // what a sweep marks on its axis
	ExploreDefaults ExploreDefaults
	// Brokers are the real brokers once live --broker runs the scenario
	// on (its live.brokers), in the file's order.
	Brokers []string
	File    string // where it was loaded from
	Source  []byte // the bytes it was loaded from (a shard carries a scenario file's)
	spec    *fileSpec
	builtIn bool // decoded from the catalog (BuiltIn)
}

// BuiltIn reports whether s is one of the catalog's scenarios, as Lookup
// returns them, rather than one loaded from a file: a shard names a
// built-in scenario and carries a file's bytes.
func (s *Scenario) BuiltIn() bool { return s.builtIn }

// Lesson is the teaching text of `once explain`.
type Lesson struct {
	Story string
	Watch string
	Why   map[sim.Semantics]string
	Fix   string
	Try   []string // commands that show the lesson
	// Source cites, in one line, what the model follows: a document, a
	// KIP, a source file of the real system.
	Source string
	// Follows names the version whose behaviour the model follows, where
	// the behaviour changed between versions.
	Follows string
	// Scaled lists the values scaled down (or simplified) from the real
	// system, each with its real default.
	Scaled []ScaledValue
}

// ScaledValue is one value of a scenario scaled down or simplified from
// the real system: a session timeout of 300 ms where Kafka's default is
// 45 s, so that a run of a few virtual seconds shows the effect.
type ScaledValue struct {
	Name  string // the real setting or behaviour: "session.timeout.ms"
	Param string // the scenario parameter it labels, "" for none
	Here  string // the value or behaviour here
	Real  string // the real default or behaviour
	Why   string // why it is scaled
}

// ExploreDefaults are the bounds `once explore` uses for the scenario
// unless told otherwise.
type ExploreDefaults struct {
	Ops       int
	MaxFaults int
	// MaxPreemptions is the explorer's interleaving bound (0: the
	// run-to-completion order only).
	MaxPreemptions int
	Faults         string
	Property       string // exactly-once | promise
}

// Supports reports whether the scenario runs under sem.
func (s *Scenario) Supports(sem sim.Semantics) bool { return slices.Contains(s.Semantics, sem) }

// builder collects the pieces of a sim.Config while a scenario builds it.
type builder struct {
	set        Settings
	params     Values
	nodes      []sim.NodeSpec
	roles      []sim.Node
	net        *network.Network
	observe    sim.Observation
	invariants []*roles.InvariantSpec
	metrics    []*roles.MetricSpec
	maxEvents  int
	maxTime    sim.Time
}

// Config turns settings into an engine configuration, validating every
// user input on the way.
func (s *Scenario) Config(set Settings) (*sim.Config, error) {
	if set.Kinds == nil {
		set.Kinds = s.Kinds
	}
	if !s.Supports(set.Semantics) {
		return nil, fmt.Errorf("scenario %s does not support semantics %s", s.Name, set.Semantics)
	}
	if set.Ops < 1 || set.Ops > 100_000 {
		return nil, fmt.Errorf("--ops %d: want 1..100000", set.Ops)
	}
	if err := set.Kinds.Validate(&set.Faults); err != nil {
		return nil, err
	}
	vals, err := ResolveParams(s.Params, set.Params)
	if err != nil {
		return nil, err
	}
	b := &builder{set: set, params: vals}
	l := &loader{file: s.File, spec: s.spec, cat: s.Roles(), kinds: set.Kinds}
	if err := l.build(b); err != nil {
		return nil, err
	}
	b.net.UseKinds(set.Kinds)
	if err := b.net.Validate(); err != nil {
		return nil, err
	}
	if err := l.cat.CheckNumbering(); err != nil {
		return nil, err
	}
	topo := l.cat.Kinds().Topology(b.nodes...)
	topo.Kinds = set.Kinds
	cfg := &sim.Config{
		Topology:  topo,
		Nodes:     b.roles,
		Network:   b.net,
		Observe:   b.observe,
		Ops:       set.Ops,
		Semantics: set.Semantics,
		MaxEvents: b.maxEvents,
		MaxTime:   b.maxTime,
	}
	if set.MaxEvents > 0 {
		cfg.MaxEvents = set.MaxEvents
	}
	if set.MaxTime > 0 {
		cfg.MaxTime = set.MaxTime
	}
	cfg.FaultsUntil, cfg.Settle = set.FaultsUntil, set.Settle
	if invs := b.invariants; len(invs) > 0 {
		cfg.Invariants = func() []sim.Invariant {
			out := make([]sim.Invariant, len(invs))
			for i, inv := range invs {
				out[i] = inv.New(topo)
			}
			return out
		}
	}
	if ms := b.metrics; len(ms) > 0 {
		cfg.Metrics = func() []sim.Metric {
			out := make([]sim.Metric, len(ms))
			for i, m := range ms {
				out[i] = m.New(topo)
			}
			return out
		}
	}
	return cfg, nil
}

// add appends a node and returns its id.
func (b *builder) add(spec sim.NodeSpec, role sim.Node) sim.NodeID {
	b.nodes = append(b.nodes, spec)
	b.roles = append(b.roles, role)
	return sim.NodeID(len(b.nodes) - 1)
}

// wire creates the network once every node is added.
func (b *builder) wire() { b.net = network.New(len(b.nodes)) }

// link configures from→to. A request or response link takes the message
// faults whose sim.Links cover it (a request link --loss, a response link
// --ack-loss, both --dup and --slow); a reliable link is FIFO and
// fault-free (a service and its gateway in one data centre).
func (b *builder) link(from, to sim.NodeID, class string, delay, jitter sim.Time, windows []network.Window) {
	f := b.set.Faults
	l := network.Link{Delay: delay, Jitter: jitter, Partitions: windows}
	if class == "reliable" {
		l.Jitter = 0
		*b.net.Link(from, to) = l
		return
	}
	kinds := b.set.Kinds
	for k, spec := range kinds.FaultKinds() {
		if kinds.OnLink(spec.Choice) != sim.NotOnLink && spec.Links.Covers(class == "response") {
			l.Probability[spec.Choice] = f.Probability[k]
			l.Hold[spec.Choice] = kinds.HoldOf(&f, sim.FaultKind(k))
		}
	}
	*b.net.Link(from, to) = l
}

// Roles is the catalog s was loaded with (s.Catalog), or RoleCatalog for a
// scenario built without one.
func (s *Scenario) Roles() *roles.Catalog {
	if s.Catalog == nil {
		return RoleCatalog()
	}
	return s.Catalog
}
