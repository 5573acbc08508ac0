package roles

import (
	"slices"

	"github.com/oncesim/once/sim"
)

// A role declares each option where its constructor reads it:
//
//	New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
//		return &Broker{
//			Consumer:   a.Node("consumer", "where records are delivered"),
//			Visibility: a.Duration("visibility", "1s", "how long it waits for a commit"),
//		}, nil
//	},
//
// Register runs New once on an empty Args to collect the declarations (a
// dry run: every option reads its default, node options read node 0 and
// the problems are thrown away), so the name, default and documentation
// of an option are written once, beside the field they fill. A
// constructor must therefore read every option on every call, whatever
// the values: a real build that reads an option the dry run did not see
// panics, and the catalog's tests build every role of every scenario.

// describe collects r's options by a dry run of its constructor.
func describe(r *Role) []Option {
	a := &Args{node: "(" + r.Name + ")", role: r, opts: map[string]string{}, nodes: map[string]sim.NodeID{}, used: map[string]bool{}, describing: true}
	r.New(a)
	return a.declared
}

// declare records o in a dry run; in a real build it checks that the role
// declared o as it reads it now.
func (a *Args) declare(o Option) {
	if a.describing {
		a.declared = append(a.declared, o)
		return
	}
	if a.role == nil {
		return
	}
	want := o.Describe()
	i := slices.IndexFunc(a.role.Options, func(d Option) bool { return d.Describe().Name == want.Name })
	if i < 0 {
		panic("roles: role " + a.role.Name + " reads option " + want.Name + " that its dry run did not read (a constructor must read every option on every call)")
	}
	if got := a.role.Options[i].Describe(); got.Kind != want.Kind || got.Default != want.Default {
		panic("roles: role " + a.role.Name + " reads option " + want.Name + " with another kind or default than it declared")
	}
}

// Node declares and reads a required node option: the id of the node it names.
func (a *Args) Node(name, doc string) sim.NodeID {
	o := Node(name, doc)
	a.declare(o)
	return o.Get(a)
}

// OptionalNode declares and reads a node option that may be left out.
func (a *Args) OptionalNode(name, doc string) (sim.NodeID, bool) {
	o := OptionalNode(name, doc)
	a.declare(o)
	return o.Get(a)
}

// Duration declares and reads a duration option that may be 0.
func (a *Args) Duration(name, def, doc string) sim.Time {
	o := Duration(name, def, doc)
	a.declare(o)
	return o.Get(a)
}

// PositiveDuration declares and reads a duration option of at least one tick.
func (a *Args) PositiveDuration(name, def, doc string) sim.Time {
	o := PositiveDuration(name, def, doc)
	a.declare(o)
	return o.Get(a)
}

// Int declares and reads an integer option within [lo, hi].
func (a *Args) Int(name string, def, lo, hi int64, doc string) int64 {
	o := Int(name, def, lo, hi, doc)
	a.declare(o)
	return o.Get(a)
}

// Enum declares and reads an option that must be one of values.
func (a *Args) Enum(name, def string, values []string, doc string) string {
	o := Enum(name, def, values, doc)
	a.declare(o)
	return o.Get(a)
}

// Bool declares and reads a true/false option.
func (a *Args) Bool(name string, def bool, doc string) bool {
	o := Bool(name, def, doc)
	a.declare(o)
	return o.Get(a)
}
