package roles

import (
	"maps"
	"slices"
	"strings"
)

// Catalog is what a scenario file can name: the roles, invariants and
// metrics of every family, and the message, timer, sink and crash-point
// names their topologies carry. It is a value, built in one place
// (scenarios.Catalog calls each family's Register in a fixed order) and
// handed to the loader; nothing registers itself from an init function,
// so no catalog depends on Go's package initialisation order. A test or a
// tool adds a role, an invariant, a metric or a kind to a Clone of it,
// without changing a package variable. A catalog must not change once a
// scenario has been loaded from it.
type Catalog struct {
	roles      map[string]*Role
	invariants map[string]*InvariantSpec
	metrics    map[string]*MetricSpec
	names      *KindNames
}

// NewCatalog returns a catalog of no roles, invariants or metrics, with a
// copy of the shared kind names.
func NewCatalog() *Catalog {
	return &Catalog{roles: map[string]*Role{}, invariants: map[string]*InvariantSpec{}, metrics: map[string]*MetricSpec{}, names: shared.Clone()}
}

// Clone returns a copy of c: what is added to the copy is the copy's
// alone. The roles, invariants and metrics themselves are shared (they
// are not changed once registered).
func (c *Catalog) Clone() *Catalog {
	return &Catalog{roles: maps.Clone(c.roles), invariants: maps.Clone(c.invariants), metrics: maps.Clone(c.metrics), names: c.names.Clone()}
}

// Kinds returns c's message, timer, sink and crash-point names: register
// a family's kinds in them, or read them.
func (c *Catalog) Kinds() *KindNames { return c.names }

// sortedValues returns m's values in key order.
func sortedValues[V any](m map[string]V) []V {
	out := make([]V, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// joinedKeys lists m's keys in order, for error messages.
func joinedKeys[V any](m map[string]V) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
