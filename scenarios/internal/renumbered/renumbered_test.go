package renumbered_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// extra are names registered in the catalog before any family's.
var extra = []string{"renumbered-a", "renumbered-b", "renumbered-c"}

// TestDigestsUnderAnotherNumbering builds, through the catalog value, a
// catalog whose names start with three of its own (every message, timer,
// sink and crash point of the families moves up) and whose families
// register in the reverse of scenarios.RegisterFamilies' order (every
// family's kinds move again, and a family registers before the one whose
// kinds its roles send: the variables are all set before a world is
// built); loads every built-in
// scenario file with it; runs each under each of its semantics, as
// TestPinnedDigests does; and finds every digest of testdata/digests.txt
// unchanged: digests see names, never numbers.
func TestDigestsUnderAnotherNumbering(t *testing.T) {
	usual := scenarios.RoleCatalog().Kinds().Clone() // the usual numbering (and RoleCatalog built: it will not renumber later)
	cat := roles.NewCatalog()
	for _, n := range extra {
		k := cat.Kinds()
		k.Message(n)
		k.Timer(n)
		k.Sink(n)
		k.Point(n)
	}
	for _, register := range slices.Backward(scenarios.Families()) {
		register(cat)
	}
	moved := 0
	here, there := usual.Topology(), cat.Kinds().Topology()
	for _, names := range [][2][]string{{here.Messages, there.Messages}, {here.Timers, there.Timers}, {here.Sinks, there.Sinks}, {here.Points, there.Points}} {
		if !slices.Equal(slices.Sorted(slices.Values(names[0])), slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(names[1]), func(n string) bool { return slices.Contains(extra, n) })))) {
			t.Fatalf("the two catalogs hold other names: %v and %v", names[0], names[1])
		}
		for i, n := range names[0] {
			if n != "" && slices.Index(names[1], n) != i {
				moved++
			}
		}
	}
	if got := there.MessageName(payments.MsgPayRequest); got != "pay" || slices.Index(here.Messages, "pay") == int(payments.MsgPayRequest) {
		t.Fatalf("payments.MsgPayRequest is %d (%q in the new catalog), the usual catalog numbers pay %d: the test would prove nothing",
			payments.MsgPayRequest, got, slices.Index(here.Messages, "pay"))
	}

	pinned := pinnedDigests(t)
	dir := filepath.Join("..", "..", "catalog")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".yaml" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenarios.LoadWith(cat, filepath.Join("catalog", e.Name()), data)
		if err != nil {
			t.Fatal(err)
		}
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
				t.Errorf("%s: digest %s under another numbering, pinned %s", key, got, want)
			}
			n++
		}
	}
	if n < len(pinned) {
		t.Errorf("compared %d runs of %d pinned", n, len(pinned))
	}
	t.Logf("%d runs, every digest as pinned; %d names numbered otherwise than in the usual catalog", n, moved)
}

// pinnedDigests reads testdata/digests.txt: "scenario semantics digest".
func pinnedDigests(t *testing.T) map[string]string {
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
	return pinned
}
