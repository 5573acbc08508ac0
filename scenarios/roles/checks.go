package roles

import (
	"sort"
	"strings"

	"github.com/oncesim/once/sim"
)

// InvariantSpec is a named invariant a scenario file can ask for.
type InvariantSpec struct {
	Name string
	Doc  string
	New  func(topo *sim.Topology) sim.Invariant
	// Clients, if set, are the roles of the observed origin whose
	// accepted responses the invariant reads (the receipts of an HTTP
	// client): in a scenario whose client is none of them it holds
	// whatever happens, and once validate refuses it.
	Clients []string
}

// MetricSpec is a named metric a scenario file can ask for.
type MetricSpec struct {
	Name string
	Unit string // what its value counts or measures, plural: "ms", "s", "responses", "payments"
	Doc  string
	New  func(topo *sim.Topology) sim.Metric
}

var (
	invariants = map[string]*InvariantSpec{}
	metrics    = map[string]*MetricSpec{}
)

// RegisterInvariant adds an invariant; a family calls it from an init
// function.
func RegisterInvariant(s *InvariantSpec) {
	if _, dup := invariants[s.Name]; dup {
		panic("roles: duplicate invariant " + s.Name)
	}
	invariants[s.Name] = s
}

// RegisterMetric adds a metric; a family calls it from an init function.
func RegisterMetric(s *MetricSpec) {
	if _, dup := metrics[s.Name]; dup {
		panic("roles: duplicate metric " + s.Name)
	}
	metrics[s.Name] = s
}

// LookupInvariant returns the invariant called name.
func LookupInvariant(name string) (*InvariantSpec, bool) {
	s, ok := invariants[name]
	return s, ok
}

// LookupMetric returns the metric called name.
func LookupMetric(name string) (*MetricSpec, bool) {
	s, ok := metrics[name]
	return s, ok
}

// Invariants returns the registered invariants, sorted by name.
func Invariants() []*InvariantSpec {
	out := make([]*InvariantSpec, 0, len(invariants))
	for _, s := range invariants {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// InvariantNames lists the registered invariants, for error messages.
func InvariantNames() string { return keysOf(invariants) }

// MetricUnit is the unit of the metric called name ("" when unknown).
func MetricUnit(name string) string {
	if s, ok := metrics[name]; ok {
		return s.Unit
	}
	return ""
}

// MetricNames lists the registered metrics, for error messages.
func MetricNames() string { return keysOf(metrics) }

func keysOf[V any](m map[string]V) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
