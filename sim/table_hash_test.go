package sim

import (
	"testing"

	"pgregory.net/rapid"
)

// freshRowsHash is the rows hash of a table rebuilt from tab's rows, so
// that nothing is cached.
func freshRowsHash(tab *Table) uint64 {
	var c Table
	for i := range tab.Len() {
		c.Put(tab.At(i))
	}
	return c.rowsHash()
}

// TestTableRowsHashFollowsWrites drives a Table (and a copy of it, taken
// now and then) with random writes, reading the cached rows hash between
// them: it must always equal the hash of the same rows computed afresh. A
// write that forgot to drop the cache would leave the old hash behind,
// and the explorer would merge states that differ.
func TestTableRowsHashFollowsWrites(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab, cp Table
		t.Repeat(map[string]func(*rapid.T){
			"put": func(t *rapid.T) { tab.Put(drawKey(t), drawRecord(t)) },
			"delete": func(t *rapid.T) {
				tab.Delete(drawKey(t))
			},
			"clear": func(t *rapid.T) {
				if rapid.IntRange(0, 9).Draw(t, "clear") != 0 {
					t.Skip("clear only now and then, so tables grow")
				}
				tab.Clear()
			},
			"copy": func(t *rapid.T) {
				cp.copyFrom(&tab)
				cp.Put(drawKey(t), drawRecord(t)) // the copy's write must not reach tab's cache
			},
			"": func(t *rapid.T) {
				for _, x := range []*Table{&tab, &cp} {
					if x.Len() == 0 {
						continue
					}
					if got, want := x.rowsHash(), freshRowsHash(x); got != want {
						t.Fatalf("cached rows hash %x, fresh %x", got, want)
					}
				}
			},
		})
	})
}

// TestRowsHashKeepsEveryAge: the rows hash with the first row's age
// distinguishes what hashing every row's age did — moving any one row's
// write time changes the world's fingerprint, moving all of them with
// now does not.
func TestRowsHashKeepsEveryAge(t *testing.T) {
	base := echoWorld(t, &echo{startAfter: 5})
	stepUntil(t, base, inFlight)
	for k := int64(1); k <= 3; k++ {
		base.nodes[0].tables[0].Put(k, Record{State: 1, At: base.now - Time(k)})
	}
	fp := base.Fingerprint()
	for k := int64(1); k <= 3; k++ {
		c := base.Clone()
		c.nodes[0].tables[0].Put(k, Record{State: 1, At: c.now - Time(k) - 1})
		if c.Fingerprint() == fp {
			t.Errorf("row %d written a tick earlier: same fingerprint", k)
		}
	}
	shifted := base.Clone()
	shifted.now += 1000
	for k := int64(1); k <= 3; k++ {
		shifted.nodes[0].tables[0].Put(k, Record{State: 1, At: shifted.now - Time(k)})
	}
	for i := range shifted.q.items {
		shifted.q.items[i].at += 1000
	}
	if shifted.Fingerprint() != fp {
		t.Error("the same rows and events shifted in time: different fingerprint")
	}
}
