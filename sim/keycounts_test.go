package sim

import (
	"math"
	"testing"
)

// TestKeyCountsResetForgets: after reset every key starts again at
// occurrence 1, past a growth of the table and past the wrap of the
// generation counter (where stale slots would otherwise look current).
func TestKeyCountsResetForgets(t *testing.T) {
	var o keyCounts
	for _, gen := range []uint32{0, 7, math.MaxUint32} {
		o.gen = gen
		for round := range 3 {
			for k := uint64(1); k <= 300; k++ { // 300 keys: the table grows past its inline 128 slots
				if n := o.next(k * 0x9e3779b97f4a7c15); n != 1 {
					t.Fatalf("gen %d round %d: key %d first seen as occurrence %d", gen, round, k, n)
				}
				if n := o.next(k * 0x9e3779b97f4a7c15); n != 2 {
					t.Fatalf("gen %d round %d: key %d second seen as occurrence %d", gen, round, k, n)
				}
			}
			o.reset()
		}
	}
}

// TestKeyCountsWrapForgetsOldGeneration: slots written in generation 0
// and left there for 2³² runs must not count as the new generation 0's.
func TestKeyCountsWrapForgetsOldGeneration(t *testing.T) {
	var o keyCounts
	o.next(42)
	o.gen = math.MaxUint32 // 2³²-1 runs later, key 42's slot still says generation 0
	o.reset()
	if n := o.next(42); n != 1 {
		t.Fatalf("after the generation wrapped, key 42 counted as occurrence %d", n)
	}
}
