package roles

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// declaredNode is a node whose constructor declares its options inline.
type declaredNode struct {
	peer    sim.NodeID
	timeout sim.Time
	mode    string
}

func (*declaredNode) Start(*sim.Context)                {}
func (*declaredNode) Receive(*sim.Context, sim.Message) {}
func (*declaredNode) Timer(*sim.Context, sim.Timer)     {}

// A role that declares its options where it reads them gets them listed,
// in reading order, with their defaults and documentation, by the dry run
// Register makes; a real build then reads the scenario's values.
func TestRegisterCollectsInlineOptionsInReadingOrder(t *testing.T) {
	c := NewCatalog()
	r := c.Register(&Role{Name: "inline", Doc: "reads its options inline", New: func(a *Args) (sim.Node, []sim.TableSpec) {
		return &declaredNode{
			peer:    a.Node("peer", "who it talks to"),
			timeout: a.PositiveDuration("timeout", "1s", "how long it waits"),
			mode:    a.Enum("mode", "fast", []string{"fast", "safe"}, "how it works"),
		}, nil
	}})
	var names []string
	for _, o := range r.Options {
		names = append(names, o.Describe().Name+"="+o.Describe().Default)
	}
	if got := strings.Join(names, " "); got != "peer= timeout=1s mode=fast" {
		t.Fatalf("declared options: %s", got)
	}
	a := NewArgs("n1", r, map[string]string{"peer": "n2", "mode": "safe"}, map[string]sim.NodeID{"n1": 0, "n2": 1})
	n, _ := r.New(a)
	d := n.(*declaredNode)
	if d.peer != 1 || d.timeout != 1000 || d.mode != "safe" || len(a.Errors()) > 0 {
		t.Fatalf("built %+v, errors %v", d, a.Errors())
	}
}

// A constructor that reads an option only for some values escapes the dry
// run; the real build that reads it panics (a program error the catalog's
// tests reach), rather than accept an option `once roles` never listed.
func TestAnOptionTheDryRunMissedPanics(t *testing.T) {
	c := NewCatalog()
	r := c.Register(&Role{Name: "conditional", New: func(a *Args) (sim.Node, []sim.TableSpec) {
		n := &declaredNode{mode: a.Enum("mode", "fast", []string{"fast", "safe"}, "how it works")}
		if n.mode == "safe" {
			n.timeout = a.Duration("timeout", "1s", "read only when safe")
		}
		return n, nil
	}})
	if len(r.Options) != 1 {
		t.Fatalf("dry run declared %d options, want 1", len(r.Options))
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "timeout") {
			t.Fatalf("recovered %v, want a panic naming option timeout", p)
		}
	}()
	r.New(NewArgs("n1", r, map[string]string{"mode": "safe"}, map[string]sim.NodeID{"n1": 0}))
}
