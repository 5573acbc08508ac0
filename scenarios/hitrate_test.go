package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// The dedup hit rate, folded from the trace, is what the lesson says: near
// 50 % in every window while every record arrives twice and the key is the
// operation ID; after the release that keys by offset (20 s, the middle of
// the run) the last two windows fall below half the first two, and the
// copies are billed twice — the drop is the signal, the duplicates the
// truth.
func TestDedupHitRateDropsAfterTheRelease(t *testing.T) {
	rates := func(o *sim.Outcome) (q [4]float64) {
		for i, name := range []string{"dedup-hit-rate-q1", "dedup-hit-rate-q2", "dedup-hit-rate-q3", "dedup-hit-rate-q4"} {
			v, ok := metric(o, name)
			if !ok {
				t.Fatalf("no metric %s", name)
			}
			q[i] = v
		}
		return q
	}
	for i, o := range runSeeds(t, "dedup-hit-rate", sim.Idempotent, map[string]string{"key": "operation"}, 20, nil) {
		q := rates(o)
		for w, r := range q {
			if r < 40 || r > 70 {
				t.Errorf("key=operation seed %d: window %d hit rate %v %%, want 40-70 (every record published twice)", i+1, w+1, r)
			}
		}
		if o.MaxEffects() > 1 {
			t.Errorf("key=operation seed %d: an operation billed %d times", i+1, o.MaxEffects())
		}
	}
	for i, o := range runSeeds(t, "dedup-hit-rate", sim.Idempotent, nil, 20, nil) {
		q := rates(o)
		if before, after := min(q[0], q[1]), max(q[2], q[3]); after*2 >= before {
			t.Errorf("key=offset seed %d: windows %v: the rate after the release (%v %%) is not below half the rate before (%v %%)", i+1, q, after, before)
		}
		if o.MaxEffects() < 2 {
			t.Errorf("key=offset seed %d: no copy billed twice after the release", i+1)
		}
	}
}
