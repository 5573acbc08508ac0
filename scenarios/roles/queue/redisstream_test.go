package queue

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles/viewtest"
	"pgregory.net/rapid"
)

// streamEntry's codec is hand-written (the owner, plus one, is kept only
// once the entry has been delivered): it round-trips over delivered
// entries, any owner, and a new entry keeps no owner.
func TestStreamEntryRoundTrip(t *testing.T) {
	viewtest.RowRoundTrip(t, func(rt *rapid.T) streamEntry {
		v := viewtest.Any[streamEntry](rt)
		v.State = rapid.SampledFrom([]int32{entryPending, entryAcked}).Draw(rt, "state")
		return v
	}, streamEntry.encode, decodeStreamEntry)
	if r := (streamEntry{State: entryNew, Owner: 3}).encode(); r.Status != 0 {
		t.Fatalf("a new entry keeps owner slot %d, want 0", r.Status)
	}
}
