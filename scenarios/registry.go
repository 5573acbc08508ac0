package scenarios

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
}

// MetricSpec is a named metric a scenario file can ask for.
type MetricSpec struct {
	Name string
	Doc  string
	New  func(topo *sim.Topology) sim.Metric
}

var (
	invariants = map[string]*InvariantSpec{}
	metrics    = map[string]*MetricSpec{}
)

func registerInvariant(s *InvariantSpec) {
	if _, dup := invariants[s.Name]; dup {
		panic("scenarios: duplicate invariant " + s.Name)
	}
	invariants[s.Name] = s
}

func registerMetric(s *MetricSpec) {
	if _, dup := metrics[s.Name]; dup {
		panic("scenarios: duplicate metric " + s.Name)
	}
	metrics[s.Name] = s
}

func keysOf[V any](m map[string]V) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
