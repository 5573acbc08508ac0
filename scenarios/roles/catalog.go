package roles

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/oncesim/once/sim"
)

// Catalog is what a scenario file can name: the roles, invariants and
// metrics of every family, the message, timer, sink and crash-point
// names their topologies carry, and the engine's fault, choice and event
// kinds (a sim.Registry) its faults: mappings may set. It is a value, built in one place
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
	engine     *sim.Registry
}

// NewCatalog returns a catalog whose names hold the shared timers
// (numbered first), with the families whose Register functions are given
// registered in that order.
func NewCatalog(families ...func(*Catalog)) *Catalog {
	c := &Catalog{roles: map[string]*Role{}, invariants: map[string]*InvariantSpec{}, metrics: map[string]*MetricSpec{}, names: NewKindNames(), engine: sim.Builtin()}
	c.NumberKinds(numberKinds)
	for _, register := range families {
		register(c)
	}
	return c
}

// numbered is the names the kind variables were last set from
// (NumberKinds): the numbering role code uses.
var numbered atomic.Pointer[KindNames]

// NumberKinds calls number, a family's function that registers its kinds
// in c's names in a fixed order and sets the package variables role code
// names them by (see KindNames); c's numbering becomes the one the
// variables hold.
func (c *Catalog) NumberKinds(number func(*KindNames)) {
	number(c.names)
	numbered.Store(c.names)
}

// errNumbering: the kind variables hold another catalog's numbers.
var errNumbering = errors.New("roles: this catalog's kinds are numbered otherwise than the kind variables role code sends " +
	"(the families were registered since in another catalog): build worlds from that catalog, or a Clone of it")

// CheckNumbering returns an error unless c's names give every kind the
// number the kind variables hold: c, a Clone of it, or a catalog whose
// families were registered in the same order.
func (c *Catalog) CheckNumbering() error {
	if n := numbered.Load(); n != nil && !c.names.extends(n) {
		return errNumbering
	}
	return nil
}

// Clone returns a copy of c: what is added to the copy is the copy's
// alone. The roles, invariants and metrics themselves are shared (they
// are not changed once registered).
func (c *Catalog) Clone() *Catalog {
	return &Catalog{roles: maps.Clone(c.roles), invariants: maps.Clone(c.invariants), metrics: maps.Clone(c.metrics), names: c.names.Clone(), engine: c.engine.Clone()}
}

// Engine returns c's fault, choice and event kinds: add a fault kind to
// them (sim.Registry.AddLinkFault, …) on a Clone, and the scenarios loaded
// from it may set it and carry it to their worlds.
func (c *Catalog) Engine() *sim.Registry { return c.engine }

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
