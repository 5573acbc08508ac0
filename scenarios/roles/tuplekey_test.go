package roles

import (
	"testing"

	"pgregory.net/rapid"
)

// TestTupleKeyInjective: two different pairs in range never share a key,
// and the key is never negative.
func TestTupleKeyInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bits := uint(rapid.IntRange(1, 62).Draw(t, "loBits"))
		hiMax, loMax := int64(1)<<(63-bits)-1, int64(1)<<bits-1
		pair := func(name string) (int64, int64) {
			return rapid.Int64Range(0, hiMax).Draw(t, name+".hi"), rapid.Int64Range(0, loMax).Draw(t, name+".lo")
		}
		h1, l1 := pair("a")
		h2, l2 := pair("b")
		k1, k2 := TupleKey(h1, l1, bits), TupleKey(h2, l2, bits)
		if k1 < 0 || k2 < 0 {
			t.Fatalf("negative key: (%d,%d)→%d, (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
		}
		if (h1 != h2 || l1 != l2) == (k1 == k2) {
			t.Fatalf("(%d,%d)→%d and (%d,%d)→%d", h1, l1, k1, h2, l2, k2)
		}
	})
}

// TestTupleKeyPanicsOutOfRange: a value outside the documented ranges is a
// programmer error, never a silent alias.
func TestTupleKeyPanicsOutOfRange(t *testing.T) {
	for _, c := range []struct {
		hi, lo int64
		bits   uint
	}{
		{1, 1 << 20, 20}, {1, -1, 20}, {-1, 1, 20}, {1 << 43, 0, 20}, {0, 0, 0}, {0, 0, 63},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("TupleKey(%d, %d, %d) did not panic", c.hi, c.lo, c.bits)
				}
			}()
			TupleKey(c.hi, c.lo, c.bits)
		}()
	}
}
