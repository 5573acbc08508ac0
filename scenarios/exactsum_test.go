package scenarios

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// exactly is the sum of xs computed with unbounded big.Float arithmetic,
// rounded once: what ExactSum must answer.
func exactly(xs []float64) float64 {
	acc := new(big.Float).SetPrec(4000)
	for _, x := range xs {
		acc.Add(acc, new(big.Float).SetPrec(4000).SetFloat64(x))
	}
	v, _ := acc.Float64()
	return v
}

func finiteFloat() *rapid.Generator[float64] {
	return rapid.OneOf(
		rapid.Float64Range(-1e6, 1e6),
		rapid.Custom(func(t *rapid.T) float64 {
			return math.Float64frombits(rapid.Uint64().Draw(t, "bits")) // any bits, filtered below
		}).Filter(func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }),
		rapid.SampledFrom([]float64{0, 1, -1, 0.1, 1e300, -1e300, 5e-324, -5e-324, math.MaxFloat64}),
	)
}

// TestExactSumIsExact: the sum equals the unbounded sum rounded once, for
// any values, including huge, tiny and subnormal ones.
func TestExactSumIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(finiteFloat(), 0, 40).Draw(t, "xs")
		var s ExactSum
		for _, x := range xs {
			s.Add(x)
		}
		if got, want := s.Float64(), exactly(xs); math.Float64bits(got) != math.Float64bits(want) && !(got == 0 && want == 0) {
			t.Fatalf("sum of %v = %v, want %v", xs, got, want)
		}
	})
}

// TestExactSumOrderFree: any split into two parts, merged in either
// order, and any permutation give the same bits and the same text — the
// property the sharded matrix relies on.
func TestExactSumOrderFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(finiteFloat(), 0, 30).Draw(t, "xs")
		cut := rapid.IntRange(0, len(xs)).Draw(t, "cut")
		perm := rapid.Permutation(xs).Draw(t, "perm")
		var whole, a, b, shuffled ExactSum
		for _, x := range xs {
			whole.Add(x)
		}
		for _, x := range xs[:cut] {
			a.Add(x)
		}
		for _, x := range xs[cut:] {
			b.Add(x)
		}
		for _, x := range perm {
			shuffled.Add(x)
		}
		ba := b
		ba.Merge(&a)
		a.Merge(&b)
		wt, _ := whole.MarshalText()
		for name, s := range map[string]*ExactSum{"a+b": &a, "b+a": &ba, "permuted": &shuffled} {
			if st, _ := s.MarshalText(); string(st) != string(wt) {
				t.Fatalf("%s: text %q, whole %q", name, st, wt)
			}
			if math.Float64bits(s.Float64()) != math.Float64bits(whole.Float64()) {
				t.Fatalf("%s: %v, whole %v", name, s.Float64(), whole.Float64())
			}
		}
		var back ExactSum
		if err := back.UnmarshalText(wt); err != nil {
			t.Fatal(err)
		}
		if bt, _ := back.MarshalText(); string(bt) != string(wt) {
			t.Fatalf("round trip %q → %q", wt, bt)
		}
	})
}

// TestExactSumFloatOrderMatters shows why ExactSum exists: plain float
// addition of the same three values in two orders gives two answers.
func TestExactSumFloatOrderMatters(t *testing.T) {
	xs := []float64{1e16, 1, -1e16}
	if (xs[0]+xs[1])+xs[2] == (xs[0]+xs[2])+xs[1] {
		t.Fatal("float addition was associative here; pick other values")
	}
	var s1, s2 ExactSum
	for _, i := range []int{0, 1, 2} {
		s1.Add(xs[i])
	}
	for _, i := range []int{0, 2, 1} {
		s2.Add(xs[i])
	}
	if s1.Float64() != 1 || s2.Float64() != 1 {
		t.Errorf("exact sums %v and %v, want 1", s1.Float64(), s2.Float64())
	}
}

// TestExactSumSpecials: NaN and infinities behave as float addition.
func TestExactSumSpecials(t *testing.T) {
	var s ExactSum
	s.Add(1)
	s.Add(math.Inf(1))
	if !math.IsInf(s.Float64(), 1) {
		t.Errorf("1 + Inf = %v", s.Float64())
	}
	s.Add(math.Inf(-1))
	if !math.IsNaN(s.Float64()) {
		t.Errorf("Inf - Inf = %v", s.Float64())
	}
	var z ExactSum
	if err := z.UnmarshalText([]byte("3:zz")); err == nil {
		t.Error("bad digit accepted")
	}
}
