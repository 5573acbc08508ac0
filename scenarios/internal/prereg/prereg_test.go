package prereg_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/internal/prereg"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TestDigestsWithNamesRegisteredFirst runs every catalog scenario under
// each of its semantics, as TestPinnedDigests does, in a build where other
// names took the first numbers of every kind, and finds every digest of
// testdata/digests.txt unchanged: digests see names, never numbers.
func TestDigestsWithNamesRegisteredFirst(t *testing.T) {
	// The numbering did shift: the extra names come before every family's.
	msgs := roles.MessageNames()
	first, pay := slices.Index(msgs, prereg.Names[0]), slices.Index(msgs, "pay")
	if first < 0 || pay < 0 || first > pay {
		t.Fatalf("prereg's names are not registered before the families' (prereg-a at %d, pay at %d): the test would prove nothing", first, pay)
	}
	if i := slices.Index(roles.SinkNames(), prereg.Names[0]); i != 0 {
		t.Fatalf("prereg-a is sink %d, want 0", i)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "digests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pinned := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && !strings.HasPrefix(l, "#") {
			pinned[f[0]+" "+f[1]] = f[2]
		}
	}
	n := 0
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			o, err := runs.Outcome(sc, scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}, sim.NewRandom(1), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", sc.Name, sem.Alias(), err)
			}
			key := sc.Name + " " + sem.Alias()
			want, ok := pinned[key]
			if !ok {
				t.Errorf("%s: not pinned in testdata/digests.txt", key)
				continue
			}
			if got := report.DigestString(o.Digest); got != want {
				t.Errorf("%s: digest %s with extra names registered first, pinned %s", key, got, want)
			}
			n++
		}
	}
	if n < len(pinned) {
		t.Errorf("compared %d runs of %d pinned", n, len(pinned))
	}
}
