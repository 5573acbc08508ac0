package scenarios

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ExactSum adds float64 values with no rounding at all, so a sum does not
// depend on the order of its additions: seeds folded by one worker or by
// seven, chunk by chunk or shard by shard on other machines, give the same
// bits. It is a fixed-point accumulator wide enough for every finite
// float64 (a "superaccumulator"): the value is Σ limb[i]·2^(32·i − 1074).
// It is read, rounded once, by Float64.
//
// The zero value is a sum of nothing. NaN and infinities are kept aside
// and make the sum NaN or ±Inf as float addition would.
type ExactSum struct {
	limbs   [sumLimbs]int64
	pending int32 // additions since the carries were last propagated
	nan     bool
	posInf  bool
	negInf  bool
}

const (
	sumDigitBits = 32
	sumDigitMask = 1<<sumDigitBits - 1
	// sumLimbs covers bit positions 0 (2^-1074) to past 2^1024, plus room
	// for carries of 2^64 additions.
	sumLimbs = 70
	// sumCarryEvery bounds the additions between carry propagations: one
	// addition puts at most 2^34 into a limb, so 2^28 of them fit an int64.
	sumCarryEvery = 1 << 28
)

// Add adds x exactly.
func (s *ExactSum) Add(x float64) {
	switch {
	case x == 0:
		return
	case math.IsNaN(x):
		s.nan = true
		return
	case math.IsInf(x, 1):
		s.posInf = true
		return
	case math.IsInf(x, -1):
		s.negInf = true
		return
	}
	b := math.Float64bits(x)
	exp := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1 // subnormal
	} else {
		mant |= 1 << 52
	}
	// x = ±mant·2^(exp−1075): its lowest bit sits at position exp−1.
	pos := exp - 1
	limb, off := pos/sumDigitBits, uint(pos%sumDigitBits)
	lo := (mant & sumDigitMask) << off  // < 2^63
	hi := (mant >> sumDigitBits) << off // < 2^52
	d0 := int64(lo & sumDigitMask)
	d1 := int64(lo>>sumDigitBits) + int64(hi&sumDigitMask)
	d2 := int64(hi >> sumDigitBits)
	if b>>63 != 0 {
		d0, d1, d2 = -d0, -d1, -d2
	}
	s.limbs[limb] += d0
	s.limbs[limb+1] += d1
	s.limbs[limb+2] += d2
	s.pending++
	if s.pending >= sumCarryEvery {
		s.carry()
	}
}

// Merge adds the sum u.
func (s *ExactSum) Merge(u *ExactSum) {
	s.carry()
	v := *u
	v.carry()
	for i := range s.limbs {
		s.limbs[i] += v.limbs[i]
	}
	s.pending = 1 // every limb is now below 2^33 in magnitude
	s.nan = s.nan || v.nan
	s.posInf = s.posInf || v.posInf
	s.negInf = s.negInf || v.negInf
}

// carry propagates carries so that every limb but the last is a digit in
// [0, 2^32): the canonical form, one per value.
func (s *ExactSum) carry() {
	for i := 0; i < sumLimbs-1; i++ {
		c := s.limbs[i] >> sumDigitBits // floor division, also for negatives
		s.limbs[i] -= c << sumDigitBits
		s.limbs[i+1] += c
	}
	s.pending = 0
}

// Float64 is the sum rounded once to the nearest float64 (ties to even).
func (s *ExactSum) Float64() float64 {
	switch {
	case s.nan || s.posInf && s.negInf:
		return math.NaN()
	case s.posInf:
		return math.Inf(1)
	case s.negInf:
		return math.Inf(-1)
	}
	n := s.bigInt()
	if n.Sign() == 0 {
		return 0
	}
	// SetInt keeps every bit (its precision grows to fit), SetMantExp
	// scales exactly, and Float64 rounds once, subnormals included.
	f := new(big.Float).SetInt(n)
	f.SetMantExp(f, -1074)
	v, _ := f.Float64()
	return v
}

// bigInt is Σ limb[i]·2^(32·i), the sum in units of 2^-1074.
func (s *ExactSum) bigInt() *big.Int {
	n := new(big.Int)
	t := new(big.Int)
	for i := sumLimbs - 1; i >= 0; i-- {
		n.Lsh(n, sumDigitBits)
		n.Add(n, t.SetInt64(s.limbs[i]))
	}
	return n
}

// MarshalText writes the sum in a canonical form: nonzero digits as
// index:hex pairs after carrying, and the special values by name, so two
// equal sums always write the same bytes.
func (s ExactSum) MarshalText() ([]byte, error) {
	s.carry()
	var parts []string
	for i, l := range s.limbs {
		if l != 0 {
			parts = append(parts, strconv.Itoa(i)+":"+strconv.FormatInt(l, 16))
		}
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{s.nan, "nan"}, {s.posInf, "+inf"}, {s.negInf, "-inf"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return []byte(strings.Join(parts, " ")), nil
}

// UnmarshalText reads what MarshalText wrote.
func (s *ExactSum) UnmarshalText(b []byte) error {
	*s = ExactSum{}
	for _, p := range strings.Fields(string(b)) {
		switch p {
		case "nan":
			s.nan = true
			continue
		case "+inf":
			s.posInf = true
			continue
		case "-inf":
			s.negInf = true
			continue
		}
		idx, digit, ok := strings.Cut(p, ":")
		i, err := strconv.Atoi(idx)
		if !ok || err != nil || i < 0 || i >= sumLimbs {
			return fmt.Errorf("exact sum: bad digit %q", p)
		}
		v, err := strconv.ParseInt(digit, 16, 64)
		if err != nil || (i < sumLimbs-1 && (v < 0 || v > sumDigitMask)) {
			return fmt.Errorf("exact sum: bad digit %q", p)
		}
		s.limbs[i] = v
	}
	return nil
}
