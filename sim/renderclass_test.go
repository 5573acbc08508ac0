package sim

import "testing"

// TestEveryEventKindHasRenderClass: the views switch on the class, so a
// kind without one would be drawn by no view.
func TestEveryEventKindHasRenderClass(t *testing.T) {
	for k := EventKind(1); k < NumEventKinds; k++ {
		if c := k.Class(); c == ClassNone || c >= NumRenderClasses {
			t.Errorf("event kind %s has no render class (%d)", k, c)
		}
	}
}

// TestAddEventKindRefusesBadSpecs: a nameless or classless kind, or a
// name taken, panics rather than rendering as nothing; and the built-in
// registry refuses to be extended (extend a copy).
func TestAddEventKindRefusesBadSpecs(t *testing.T) {
	for _, c := range []struct {
		r    *Registry
		spec EventKindSpec
	}{{Builtin(), EventKindSpec{Name: "x"}}, {Builtin(), EventKindSpec{Class: ClassSend}}, {Builtin(), EventKindSpec{Name: "send", Class: ClassSend}},
		{nil, EventKindSpec{Name: "x", Class: ClassSend}}, {builtin, EventKindSpec{Name: "x", Class: ClassSend}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddEventKind(%+v) on %p did not panic", c.spec, c.r)
				}
			}()
			c.r.AddEventKind(c.spec)
		}()
	}
}
