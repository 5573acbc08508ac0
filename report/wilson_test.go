package report

import (
	"math"
	"testing"
)

// TestWilson checks the interval against published values: Newcombe (1998),
// "Two-sided confidence intervals for the single proportion", Statistics in
// Medicine 17, table II (method 3, the score interval), given to 4 places.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		lo, hi := Wilson95(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("Wilson95(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// TestWilsonEdges: no trials means nothing is known; the interval always
// contains the observed rate and stays within [0,1].
func TestWilsonEdges(t *testing.T) {
	if lo, hi := Wilson95(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson95(0, 0) = [%v, %v], want [0, 1]", lo, hi)
	}
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			lo, hi := Wilson95(k, n)
			p := float64(k) / float64(n)
			if lo < 0 || hi > 1 || lo > p || hi < p {
				t.Fatalf("Wilson95(%d, %d) = [%v, %v] does not contain %v within [0,1]", k, n, lo, hi, p)
			}
		}
	}
	if lo, hi := Wilson(3, 10, 0); lo != 0.3 || hi != 0.3 {
		t.Errorf("Wilson at z=0 = [%v, %v], want the point 0.3", lo, hi)
	}
}
