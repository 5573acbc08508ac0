package scenarios

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// Role is a kind of node a scenario can be composed of: a constructor from
// options to a pure state machine and the tables it keeps.
type Role struct {
	Name    string
	Doc     string
	Options []RoleOption
	// New builds the node. It reads its options through a; a records
	// every problem (unknown node, bad value) for the caller to report.
	New func(a *RoleArgs) (sim.Node, []sim.TableSpec)
}

// RoleOption documents one option of a role.
type RoleOption struct {
	Name    string
	Kind    string // node | duration | int | enum | bool
	Default string
	Values  []string // enum
	Doc     string
}

var roles = map[string]*Role{}

func registerRole(r *Role) *Role {
	if _, dup := roles[r.Name]; dup {
		panic("scenarios: duplicate role " + r.Name)
	}
	roles[r.Name] = r
	return r
}

// Roles returns every role in name order.
func Roles() []*Role {
	out := make([]*Role, 0, len(roles))
	for _, r := range roles {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupRole returns the role called name.
func LookupRole(name string) (*Role, bool) {
	r, ok := roles[name]
	return r, ok
}

// RoleNames lists the registered roles, for error messages.
func RoleNames() string {
	names := make([]string, 0, len(roles))
	for _, r := range Roles() {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// RoleArgs are the options of one node's role, already substituted with
// the scenario's parameter values. Each getter records a problem instead
// of failing, so a constructor reads naturally top to bottom.
type RoleArgs struct {
	node  string
	role  *Role
	opts  map[string]string
	nodes map[string]sim.NodeID
	used  map[string]bool
	errs  []OptionError
}

// OptionError is a bad role option: which option, what is wrong.
type OptionError struct {
	Option string
	Msg    string
}

func (a *RoleArgs) fail(opt, format string, args ...any) {
	a.errs = append(a.errs, OptionError{Option: opt, Msg: fmt.Sprintf(format, args...)})
}

func (a *RoleArgs) raw(name, def string) (string, bool) {
	a.used[name] = true
	if v, ok := a.opts[name]; ok {
		return v, true
	}
	return def, false
}

// Self returns the node's own name.
func (a *RoleArgs) Self() string { return a.node }

// Node returns the id of the node named by option name (required).
func (a *RoleArgs) Node(name string) sim.NodeID {
	v, ok := a.raw(name, "")
	if !ok || v == "" {
		a.fail(name, "role %s needs option %s (a node name)", a.role.Name, name)
		return 0
	}
	id, ok := a.nodes[v]
	if !ok {
		known := make([]string, 0, len(a.nodes))
		for n := range a.nodes {
			known = append(known, n)
		}
		sort.Strings(known)
		a.fail(name, "%s: no node named %q (nodes: %s)", name, v, strings.Join(known, ", "))
	}
	return id
}

// Duration returns a duration option.
func (a *RoleArgs) Duration(name string, def sim.Time) sim.Time {
	v, ok := a.raw(name, "")
	if !ok {
		return def
	}
	d, err := ParseDuration(v)
	if err != nil {
		a.fail(name, "%s: %v", name, err)
	}
	return d
}

// PositiveDuration returns a duration option that must be at least one
// tick (an interval, a timeout).
func (a *RoleArgs) PositiveDuration(name string, def sim.Time) sim.Time {
	d := a.Duration(name, def)
	if d < 1 {
		a.fail(name, "%s: must be at least 1ms", name)
	}
	return d
}

// Int returns an integer option within [lo, hi].
func (a *RoleArgs) Int(name string, def, lo, hi int64) int64 {
	v, ok := a.raw(name, "")
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < lo || n > hi {
		a.fail(name, "%s: %q is not an integer in [%d, %d]", name, v, lo, hi)
		return def
	}
	return n
}

// Enum returns an option that must be one of values; def is the default.
func (a *RoleArgs) Enum(name, def string, values ...string) string {
	v, _ := a.raw(name, def)
	for _, x := range values {
		if v == x {
			return v
		}
	}
	a.fail(name, "%s: %q is not one of %s", name, v, strings.Join(values, "|"))
	return def
}

// Bool returns a true/false option.
func (a *RoleArgs) Bool(name string, def bool) bool {
	v, ok := a.raw(name, "")
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		a.fail(name, "%s: %q is not true or false", name, v)
		return def
	}
	return b
}

// unused returns the options nobody read, sorted.
func (a *RoleArgs) unused() []string {
	var out []string
	for k := range a.opts {
		if !a.used[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
