package roles

import (
	"fmt"
	"math"
)

// TupleKey is the int64 key of the pair (hi, lo) in a hash table that is
// keyed by that pair: lo in the low loDigits decimal digits, hi above
// them, two fields that never overlap, so two different pairs never share
// a key. Decimal, not binary, fields keep the key readable in a trace:
// operation 3, attempt 2 with six digits is 3000002.
// It is for table keys and opaque ids only, never a message slot: a view
// carries each value in a slot of its own.
//
// Its ranges are 0 <= lo <= TupleLoMax(loDigits) and
// 0 <= hi <= TupleHiMax(loDigits), with 1 <= loDigits <= 18. A value
// outside them is a programmer error (a role that outgrew its key layout),
// and TupleKey panics rather than alias two rows.
func TupleKey(hi, lo int64, loDigits int) int64 {
	if loDigits < 1 || loDigits > 18 {
		panic(fmt.Sprintf("roles.TupleKey: loDigits %d outside [1, 18]", loDigits))
	}
	if lo < 0 || lo > TupleLoMax(loDigits) {
		panic(fmt.Sprintf("roles.TupleKey: lo %d outside [0, %d]", lo, TupleLoMax(loDigits)))
	}
	if hi < 0 || hi > TupleHiMax(loDigits) {
		panic(fmt.Sprintf("roles.TupleKey: hi %d outside [0, %d]", hi, TupleHiMax(loDigits)))
	}
	return hi*pow10(loDigits) + lo
}

// TupleLoMax is the largest lo a key with loDigits digits holds.
func TupleLoMax(loDigits int) int64 { return pow10(loDigits) - 1 }

// TupleHiMax is the largest hi a key with loDigits digits holds without
// overflowing int64.
func TupleHiMax(loDigits int) int64 { return (math.MaxInt64 - TupleLoMax(loDigits)) / pow10(loDigits) }

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// AttemptDigits is the width of the attempt field in an (operation,
// attempt) key: up to 999 999 attempts of one operation (a run whose every
// response is lost retries thousands of times before its budget ends).
const AttemptDigits = 6
