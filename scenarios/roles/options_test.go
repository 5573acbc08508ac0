package roles

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

var testRole = &Role{Name: "test-role"}

func args(opts map[string]string) *Args {
	return NewArgs("n1", testRole, opts, map[string]sim.NodeID{"n1": 0, "n2": 1})
}

// Every option falls back on the default it declares, the one `once roles`
// prints.
func TestOptionDefaultsAreTheDocumentedOnes(t *testing.T) {
	a := args(map[string]string{})
	d := Duration("timeout", "1.5s", "")
	i := Int("batch", 2, 1, 100, "")
	e := Enum("mode", "insert", []string{"insert", "upsert"}, "")
	b := Bool("first", true, "")
	o := OptionalNode("db", "")
	if got := d.Get(a); got != 1500 || d.Describe().Default != "1.5s" {
		t.Errorf("duration: got %d, documented %q", got, d.Describe().Default)
	}
	if got := i.Get(a); got != 2 || i.Describe().Default != "2" {
		t.Errorf("int: got %d, documented %q", got, i.Describe().Default)
	}
	if got := e.Get(a); got != "insert" || e.Describe().Default != "insert" {
		t.Errorf("enum: got %q, documented %q", got, e.Describe().Default)
	}
	if got := b.Get(a); !got || b.Describe().Default != "true" {
		t.Errorf("bool: got %v, documented %q", got, b.Describe().Default)
	}
	if _, ok := o.Get(a); ok || o.Describe().Default != "none" {
		t.Errorf("optional node: set=%v, documented %q", ok, o.Describe().Default)
	}
	if errs := a.Errors(); len(errs) > 0 {
		t.Fatalf("defaults recorded errors: %v", errs)
	}
}

func TestOptionValuesAndErrors(t *testing.T) {
	a := args(map[string]string{"peer": "n2", "ghost": "n9", "timeout": "0", "batch": "500", "mode": "merge", "extra": "1"})
	if got := Node("peer", "").Get(a); got != 1 {
		t.Errorf("node: got %d, want 1", got)
	}
	Node("ghost", "").Get(a)
	Node("missing", "").Get(a)
	PositiveDuration("timeout", "1s", "").Get(a)
	if got := Int("batch", 2, 1, 100, "").Get(a); got != 2 {
		t.Errorf("int out of range: got %d, want the default 2", got)
	}
	Enum("mode", "insert", []string{"insert", "upsert"}, "").Get(a)
	want := []string{
		`ghost: no node named "n9" (nodes: n1, n2)`,
		"role test-role needs option missing (a node name)",
		"timeout: must be at least 1ms",
		`batch: "500" is not an integer in [1, 100]`,
		`mode: "merge" is not one of insert|upsert`,
	}
	errs := a.Errors()
	if len(errs) != len(want) {
		t.Fatalf("got %d errors %v, want %d", len(errs), errs, len(want))
	}
	for i, e := range errs {
		if e.Msg != want[i] {
			t.Errorf("error %d: got %q, want %q", i, e.Msg, want[i])
		}
	}
	if extra := a.Unused(); len(extra) != 1 || extra[0] != "extra" {
		t.Errorf("unused: got %v, want [extra]", extra)
	}
}

// A default that its own option would reject is a mistake of the program,
// caught when the role registers.
func TestRegisterRejectsABadDefault(t *testing.T) {
	for _, o := range []Option{
		Enum("mode", "merge", []string{"insert", "upsert"}, ""),
		Int("batch", 0, 1, 100, ""),
		PositiveDuration("every", "0", ""),
		Duration("ttl", "soon", ""),
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), o.Describe().Name) {
					t.Errorf("%s: Register did not panic naming the option (recovered %v)", o.Describe().Name, r)
				}
			}()
			NewCatalog().Register(&Role{Name: "bad-default-" + o.Describe().Name, Options: []Option{o}})
		}()
	}
}
