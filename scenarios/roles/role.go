package roles

import "github.com/oncesim/once/sim"

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

// Register adds a role to c; a family's Register calls it once per role.
// It panics on a duplicate role or option name, or on an option whose
// default is not one of its own values: mistakes of the program, not of a
// scenario file.
func (c *Catalog) Register(r *Role) *Role {
	if _, dup := c.roles[r.Name]; dup {
		panic("roles: duplicate role " + r.Name)
	}
	if r.Options == nil && r.New != nil {
		r.Options = describe(r)
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
	c.roles[r.Name] = r
	return r
}

// All returns c's roles in name order.
func (c *Catalog) All() []*Role { return sortedValues(c.roles) }

// Lookup returns c's role called name.
func (c *Catalog) Lookup(name string) (*Role, bool) {
	r, ok := c.roles[name]
	return r, ok
}

// RoleNames lists c's roles, for error messages.
func (c *Catalog) RoleNames() string { return joinedKeys(c.roles) }
