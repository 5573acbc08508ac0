package sim

// fingerprintSet maps explored states to the fewest faults used to reach
// them. A state reached again with fewer faults used is explored again: it
// has more budget left, so more schedules below it.
//
// It is an open-addressing table (linear probing) rather than a Go map, so
// that its memory is known exactly — 9 bytes a slot, at most 3/4 of the
// slots used — and the explorer's memory budget can count it. Fingerprints
// are already well-mixed hashes, so their low bits index the table; the
// zero fingerprint marks an empty slot and is kept aside.
type fingerprintSet struct {
	keys     []Fingerprint
	used     []uint8
	n        int
	hasZero  bool
	zeroUsed uint8
}

const fingerprintSetMinSlots = 1024

func newFingerprintSet() *fingerprintSet {
	return &fingerprintSet{keys: make([]Fingerprint, fingerprintSetMinSlots), used: make([]uint8, fingerprintSetMinSlots)}
}

// add records fp reached with used faults; it reports whether the state
// must be explored (new, or reached with fewer faults than before).
func (s *fingerprintSet) add(fp Fingerprint, used int) bool {
	u := uint8(min(used, 255))
	if fp == 0 {
		if s.hasZero && s.zeroUsed <= u {
			return false
		}
		s.hasZero, s.zeroUsed = true, u
		return true
	}
	mask := uint64(len(s.keys) - 1)
	for i := uint64(fp) & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case fp:
			if s.used[i] <= u {
				return false
			}
			s.used[i] = u
			return true
		case 0:
			s.keys[i], s.used[i] = fp, u
			s.n++
			if 4*s.n > 3*len(s.keys) {
				s.grow()
			}
			return true
		}
	}
}

// grow doubles the table and re-inserts every entry.
func (s *fingerprintSet) grow() {
	keys, used := s.keys, s.used
	s.keys = make([]Fingerprint, 2*len(keys))
	s.used = make([]uint8, 2*len(keys))
	mask := uint64(len(s.keys) - 1)
	for j, fp := range keys {
		if fp == 0 {
			continue
		}
		i := uint64(fp) & mask
		for s.keys[i] != 0 {
			i = (i + 1) & mask
		}
		s.keys[i], s.used[i] = fp, used[j]
	}
}

// bytes is the memory the table holds.
func (s *fingerprintSet) bytes() int64 {
	return int64(len(s.keys)) * 9
}
