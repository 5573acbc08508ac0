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

// TestRegisterEventKindRefusesBadSpecs: a nameless or classless kind, or a
// name taken, panics rather than rendering as nothing.
func TestRegisterEventKindRefusesBadSpecs(t *testing.T) {
	for _, spec := range []EventKindSpec{{Name: "x"}, {Class: ClassSend}, {Name: "send", Class: ClassSend}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterEventKind(%+v) did not panic", spec)
				}
			}()
			RegisterEventKind(spec)
		}()
	}
}
