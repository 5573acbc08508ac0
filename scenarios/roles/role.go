package roles

import (
	"sort"
	"strings"

	"github.com/oncesim/once/sim"
)

// Role is a kind of node a scenario can be composed of: a constructor from
// options to a pure state machine and the tables it keeps.
type Role struct {
	Name    string
	Doc     string
	Options []Option
	// Store marks a store role (a database, a key store, a lock service):
	// its node is a sim store node, whose replies are the points where
	// handlers interleave (sim.NodeSpec.Store, docs/concurrency.md).
	Store bool
	// New builds the node. It reads its options through their Get
	// methods; a records every problem (unknown node, bad value) for the
	// caller to report.
	New func(a *Args) (sim.Node, []sim.TableSpec)
}

var registered = map[string]*Role{}

// Register adds a role; a family calls it from an init function, once per
// role. It panics on a duplicate role or option name, or on an option whose
// default is not one of its own values: mistakes of the program, not of a
// scenario file.
func Register(r *Role) *Role {
	if _, dup := registered[r.Name]; dup {
		panic("roles: duplicate role " + r.Name)
	}
	seen := map[string]bool{}
	for _, o := range r.Options {
		d := o.Describe()
		if seen[d.Name] {
			panic("roles: role " + r.Name + " declares option " + d.Name + " twice")
		}
		seen[d.Name] = true
		if err := o.check(); err != nil {
			panic("roles: role " + r.Name + ": " + err.Error())
		}
	}
	registered[r.Name] = r
	return r
}

// All returns every role in name order.
func All() []*Role {
	out := make([]*Role, 0, len(registered))
	for _, r := range registered {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the role called name.
func Lookup(name string) (*Role, bool) {
	r, ok := registered[name]
	return r, ok
}

// Names lists the registered roles, for error messages.
func Names() string {
	names := make([]string, 0, len(registered))
	for _, r := range All() {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}
