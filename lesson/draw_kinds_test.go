package lesson

import (
	"testing"
)

// TestSheetsPreferFreshKinds: a sheet asks a second question of a kind
// (two "which single fault" questions that differ by a parameter) only
// when the bank has no question of another kind left for that place —
// mechanism or evidence — over every step of both tracks and 200 seeds.
func TestSheetsPreferFreshKinds(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	all := c.AllTracks()
	repeats := 0
	for i := range all.Steps {
		s := &all.Steps[i]
		for seed := uint64(1); seed <= 200; seed++ {
			sheet := s.draw(seed)
			asked := map[string]int{}
			onSheet := map[string]bool{}
			for _, q := range sheet {
				asked[q.Ask]++
				onSheet[q.ID] = true
			}
			for _, q := range sheet {
				if asked[q.Ask] < 2 || q.Always {
					continue
				}
				repeats++
				for _, b := range s.Bank {
					if !onSheet[b.ID] && b.Mechanism() == q.Mechanism() && asked[b.Ask] == 0 {
						t.Fatalf("step %s, seed %d: the sheet asks %d %q questions while %s (%s) was left in the bank", s.ID, seed, asked[q.Ask], q.Ask, b.ID, b.Ask)
					}
				}
			}
		}
	}
	t.Logf("%d repeated kinds over %d steps × 200 seeds, each where the bank had no other kind left", repeats, len(all.Steps))
}
