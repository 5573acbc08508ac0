package queue

// appendFlag appends v to an invariant's or metric's state as one byte,
// 1 or 0.
func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}
