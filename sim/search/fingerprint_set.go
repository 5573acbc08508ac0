package search

import (
	"math/bits"

	"github.com/oncesim/once/sim"
)

// fingerprintSet maps explored states to the fewest faults used to reach
// them. A state reached again with fewer faults used is explored again: it
// has more budget left, so more schedules below it.
//
// It is a flat open-addressing table (linear probing) of 64-bit words
// rather than a Go map, so that its memory is known exactly — 8 bytes a
// slot, at most 3/4 of the slots used — and the explorer's memory budget
// can count it, and so that a lookup touches one cache line. A slot holds
// the fingerprint's top 59 bits with the faults used, plus one, in the low
// 5 bits (0 marks an empty slot); the table is indexed by the
// fingerprint's top bits. Two states whose fingerprints agree on those 59
// bits are merged, as two equal 64-bit fingerprints always were: the
// chance of that among n states is about n²/2⁶⁰.
type fingerprintSet struct {
	slots []uint64
	shift uint // 64 - log2(len(slots))
	n     int
}

const (
	fingerprintSetMinSlots = 1024
	fingerprintUsedBits    = 5
	fingerprintUsedMask    = 1<<fingerprintUsedBits - 1
)

func newFingerprintSet() *fingerprintSet {
	return &fingerprintSet{slots: make([]uint64, fingerprintSetMinSlots), shift: 64 - uint(bits.TrailingZeros(fingerprintSetMinSlots))}
}

// add records fp reached with used faults; it reports whether the state
// must be explored (new, or reached with fewer faults than before).
func (s *fingerprintSet) add(fp sim.Fingerprint, used int) bool {
	tag := uint64(fp) &^ fingerprintUsedMask
	u := uint64(min(used, fingerprintUsedMask-1)) + 1
	mask := uint64(len(s.slots) - 1)
	for i := uint64(fp) >> s.shift; ; i = (i + 1) & mask {
		v := s.slots[i]
		switch {
		case v == 0:
			s.slots[i] = tag | u
			s.n++
			return true
		case v&^fingerprintUsedMask == tag:
			if v&fingerprintUsedMask <= u {
				return false
			}
			s.slots[i] = tag | u
			return true
		}
	}
}

// full reports whether the table is loaded past 3/4 and must grow before
// the next add. The explorer grows it (grow) only when the memory budget
// holds the new table beside the old one, so the table never outgrows
// the budget behind the explorer's back.
func (s *fingerprintSet) full() bool { return 4*s.n > 3*len(s.slots) }

// growBytes is what grow allocates: the doubled table, held beside the
// old one while the entries are moved.
func (s *fingerprintSet) growBytes() int64 { return 2 * s.bytes() }

// grow doubles the table and re-inserts every entry.
func (s *fingerprintSet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.shift--
	mask := uint64(len(s.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		i := v >> s.shift
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = v
	}
}

// bytes is the memory the table holds.
func (s *fingerprintSet) bytes() int64 {
	return int64(len(s.slots)) * 8
}
