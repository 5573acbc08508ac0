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
//
// Under the symmetry reduction the set also keeps, per slot, a byte that
// names the renaming under which its state was stored (namings, nil
// otherwise): a later arrival of the same orbit under another naming is a
// renaming of the stored state, not the state itself (Stats.Collapsed).
type fingerprintSet struct {
	slots   []uint64
	namings []uint8 // per slot, the stored state's naming (withNamings)
	shift   uint    // 64 - log2(len(slots))
	n       int
}

const (
	fingerprintSetMinSlots = 1024
	fingerprintUsedBits    = 5
	fingerprintUsedMask    = 1<<fingerprintUsedBits - 1
)

func newFingerprintSet() *fingerprintSet {
	return &fingerprintSet{slots: make([]uint64, fingerprintSetMinSlots), shift: 64 - uint(bits.TrailingZeros(fingerprintSetMinSlots))}
}

// withNamings makes the set keep a naming byte per slot (addNamed).
func (s *fingerprintSet) withNamings() *fingerprintSet {
	s.namings = make([]uint8, len(s.slots))
	return s
}

// addNamed records fp reached with used faults under the naming naming
// (kept only by a set withNamings; 0 otherwise). explore reports whether
// the state must be explored (new, or reached with fewer faults than
// before); renamed, that it is not and was stored under another naming.
func (s *fingerprintSet) addNamed(fp sim.Fingerprint, used int, naming uint8) (explore, renamed bool) {
	tag := uint64(fp) &^ fingerprintUsedMask
	u := uint64(min(used, fingerprintUsedMask-1)) + 1
	mask := uint64(len(s.slots) - 1)
	for i := uint64(fp) >> s.shift; ; i = (i + 1) & mask {
		v := s.slots[i]
		switch {
		case v == 0:
			s.slots[i] = tag | u
			s.setNaming(i, naming)
			s.n++
			return true, false
		case v&^fingerprintUsedMask == tag:
			if v&fingerprintUsedMask <= u {
				return false, s.namings != nil && s.namings[i] != naming
			}
			s.slots[i] = tag | u
			s.setNaming(i, naming)
			return true, false
		}
	}
}

// setNaming records the naming of slot i, if the set keeps namings.
func (s *fingerprintSet) setNaming(i uint64, naming uint8) {
	if s.namings != nil {
		s.namings[i] = naming
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
	old, oldNamings := s.slots, s.namings
	s.slots = make([]uint64, 2*len(old))
	if oldNamings != nil {
		s.namings = make([]uint8, len(s.slots))
	}
	s.shift--
	mask := uint64(len(s.slots) - 1)
	for j, v := range old {
		if v == 0 {
			continue
		}
		i := v >> s.shift
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = v
		if oldNamings != nil {
			s.namings[i] = oldNamings[j]
		}
	}
}

// bytes is the memory the table holds: 8 bytes a slot, 9 with namings.
func (s *fingerprintSet) bytes() int64 {
	return int64(len(s.slots))*8 + int64(len(s.namings))
}
