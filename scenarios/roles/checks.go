package roles

import "github.com/oncesim/once/sim"

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

// RegisterInvariant adds an invariant to c; a family's Register calls it.
func (c *Catalog) RegisterInvariant(s *InvariantSpec) {
	if _, dup := c.invariants[s.Name]; dup {
		panic("roles: duplicate invariant " + s.Name)
	}
	c.invariants[s.Name] = s
}

// RegisterMetric adds a metric to c; a family's Register calls it.
func (c *Catalog) RegisterMetric(s *MetricSpec) {
	if _, dup := c.metrics[s.Name]; dup {
		panic("roles: duplicate metric " + s.Name)
	}
	c.metrics[s.Name] = s
}

// LookupInvariant returns c's invariant called name.
func (c *Catalog) LookupInvariant(name string) (*InvariantSpec, bool) {
	s, ok := c.invariants[name]
	return s, ok
}

// LookupMetric returns c's metric called name.
func (c *Catalog) LookupMetric(name string) (*MetricSpec, bool) {
	s, ok := c.metrics[name]
	return s, ok
}

// Invariants returns c's invariants, sorted by name.
func (c *Catalog) Invariants() []*InvariantSpec { return sortedValues(c.invariants) }

// Metrics returns c's metrics, sorted by name.
func (c *Catalog) Metrics() []*MetricSpec { return sortedValues(c.metrics) }

// InvariantNames lists c's invariants, for error messages.
func (c *Catalog) InvariantNames() string { return joinedKeys(c.invariants) }

// MetricUnit is the unit of c's metric called name ("" when unknown).
func (c *Catalog) MetricUnit(name string) string {
	if s, ok := c.metrics[name]; ok {
		return s.Unit
	}
	return ""
}

// MetricNames lists c's metrics, for error messages.
func (c *Catalog) MetricNames() string { return joinedKeys(c.metrics) }
