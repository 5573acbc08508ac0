package roles

import (
	"fmt"
	"sort"

	"github.com/oncesim/once/sim"
)

// Args are the options of one node's role, already substituted with the
// scenario's parameter values. Reading an option records a problem instead
// of failing, so a constructor reads naturally top to bottom.
type Args struct {
	node  string
	role  *Role
	opts  map[string]string
	nodes map[string]sim.NodeID
	used  map[string]bool
	errs  []OptionError
	// describing marks Register's dry run (declare.go), which collects
	// in declared the options the constructor reads.
	describing bool
	declared   []Option
}

// OptionError is a bad role option: which option, what is wrong.
type OptionError struct {
	Option string
	Msg    string
}

// NewArgs returns the options opts of node (whose role is role); nodes
// names every node of the scenario.
func NewArgs(node string, role *Role, opts map[string]string, nodes map[string]sim.NodeID) *Args {
	return &Args{node: node, role: role, opts: opts, nodes: nodes, used: map[string]bool{}}
}

// Fail records a problem with option opt.
func (a *Args) Fail(opt, format string, args ...any) {
	a.errs = append(a.errs, OptionError{Option: opt, Msg: fmt.Sprintf(format, args...)})
}

// Errors returns the problems recorded so far, in the order they were met.
func (a *Args) Errors() []OptionError { return a.errs }

// Self returns the node's own name.
func (a *Args) Self() string { return a.node }

// raw returns the text of option name and whether the file set it.
func (a *Args) raw(name string) (string, bool) {
	a.used[name] = true
	v, ok := a.opts[name]
	return v, ok
}

// Unused returns the options nobody read, sorted.
func (a *Args) Unused() []string {
	var out []string
	for k := range a.opts {
		if !a.used[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
