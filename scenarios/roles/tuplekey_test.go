package roles

import (
	"testing"

	"pgregory.net/rapid"
)

// TestTupleKeyInjective: two different pairs in range never share a key,
// and the key is never negative.
func TestTupleKeyInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.IntRange(1, 18).Draw(t, "loDigits")
		hiMax, loMax := TupleHiMax(digits), TupleLoMax(digits)
		pair := func(name string) (int64, int64) {
			return rapid.Int64Range(0, hiMax).Draw(t, name+".hi"), rapid.Int64Range(0, loMax).Draw(t, name+".lo")
		}
		h1, l1 := pair("a")
		h2, l2 := pair("b")
		k1, k2 := TupleKey(h1, l1, digits), TupleKey(h2, l2, digits)
		if k1 < 0 || k2 < 0 {
			t.Fatalf("negative key: (%d,%d)→%d, (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
		}
		if (h1 != h2 || l1 != l2) == (k1 == k2) {
			t.Fatalf("(%d,%d)→%d and (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
		}
	})
}

// TestTupleKeyReadable: the key of (3, 2) with six digits reads 3000002.
func TestTupleKeyReadable(t *testing.T) {
	if got := TupleKey(3, 2, AttemptDigits); got != 3_000_002 {
		t.Fatalf("TupleKey(3, 2, %d) = %d, want 3000002", AttemptDigits, got)
	}
}

// TestTupleKeyPanicsOutOfRange: a value outside the documented ranges is a
// programmer error, never a silent alias.
func TestTupleKeyPanicsOutOfRange(t *testing.T) {
	for _, c := range []struct {
		hi, lo int64
		digits int
	}{
		{1, 1_000_000, 6}, {1, -1, 6}, {-1, 1, 6}, {TupleHiMax(6) + 1, 0, 6}, {0, 0, 0}, {0, 0, 19},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("TupleKey(%d, %d, %d) did not panic", c.hi, c.lo, c.digits)
				}
			}()
			TupleKey(c.hi, c.lo, c.digits)
		}()
	}
}
