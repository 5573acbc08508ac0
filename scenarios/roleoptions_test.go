package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// optionValues are values worth building a role with for option d: every
// word of an enum, both truths, an int's bounds, a few durations, a node.
func optionValues(d roles.OptionDoc) []string {
	switch d.Kind {
	case "enum":
		return d.Values
	case "bool":
		return []string{"true", "false"}
	case "node":
		return []string{"peer", "none"}
	case "duration":
		return []string{d.Default, "0", "1ms", "5s"}
	}
	return []string{d.Default, "0", "1", "100"}
}

// Every role lists its options by a dry run of its build function on the
// defaults (roles/declare.go), so a build that read an option only for
// some values of another would panic on a user's file that sets them, or
// leave an option the file sets unread. Build every role of the catalog
// with each option, and each pair of enum and bool options, at each of
// its values: no panic, and every option set is read.
func TestEveryRoleReadsEveryOptionWhateverTheValues(t *testing.T) {
	nodes := map[string]sim.NodeID{"self": 0, "peer": 1}
	build := func(r *roles.Role, opts map[string]string) {
		t.Helper()
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("role %s with %v: %v", r.Name, opts, p)
			}
		}()
		a := roles.NewArgs("self", r, opts, nodes)
		r.New(a)
		if unread := a.Unused(); len(unread) > 0 {
			t.Errorf("role %s with %v: options set but not read: %v", r.Name, opts, unread)
		}
	}
	roleCount, builds := 0, 0
	for _, r := range scenarios.RoleCatalog().All() {
		roleCount++
		var docs []roles.OptionDoc
		for _, o := range r.Options {
			docs = append(docs, o.Describe())
		}
		for i, d := range docs {
			for _, v := range optionValues(d) {
				build(r, map[string]string{d.Name: v})
				builds++
			}
			if d.Kind != "enum" && d.Kind != "bool" {
				continue
			}
			for _, e := range docs[i+1:] {
				if e.Kind != "enum" && e.Kind != "bool" {
					continue
				}
				for _, v := range optionValues(d) {
					for _, w := range optionValues(e) {
						build(r, map[string]string{d.Name: v, e.Name: w})
						builds++
					}
				}
			}
		}
	}
	if roleCount < 50 || builds < 300 {
		t.Fatalf("built %d roles %d times: the catalog did not load", roleCount, builds)
	}
	t.Logf("%d roles, %d builds", roleCount, builds)
}
