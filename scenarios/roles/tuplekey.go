package roles

import "fmt"

// TupleKey is the int64 key of the pair (hi, lo) in a hash table that is
// keyed by that pair: hi in the high bits, lo in the low loBits bits, two
// fields that never overlap, so two different pairs never share a key.
// It is for table keys and opaque ids only, never a message slot: a view
// carries each value in a slot of its own.
//
// Its ranges are 0 <= lo < 1<<loBits and 0 <= hi < 1<<(63-loBits), with
// 1 <= loBits <= 62. A value outside them is a programmer error (a role
// that outgrew its key layout), and TupleKey panics rather than alias two
// rows.
func TupleKey(hi, lo int64, loBits uint) int64 {
	if loBits < 1 || loBits > 62 {
		panic(fmt.Sprintf("roles.TupleKey: loBits %d outside [1, 62]", loBits))
	}
	if lo < 0 || lo >= 1<<loBits {
		panic(fmt.Sprintf("roles.TupleKey: lo %d outside [0, 2^%d)", lo, loBits))
	}
	if hi < 0 || hi >= 1<<(63-loBits) {
		panic(fmt.Sprintf("roles.TupleKey: hi %d outside [0, 2^%d)", hi, 63-loBits))
	}
	return hi<<loBits | lo
}

// AttemptBits is the width of the attempt field in an (operation, attempt)
// key: up to 2^20-1 attempts of one operation.
const AttemptBits = 20
