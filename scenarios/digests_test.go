package scenarios_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

const digestsHeader = `# The trace digest of every catalog scenario under each of its semantics:
# seed 1, the scenario's default operations, faults and parameters.
# Any change to a digest is a visible diff here. Refresh with
#   go test ./scenarios/ -run TestPinnedDigests -rewrite
# scenario semantics digest
`

// rewriting reports whether the test binary runs with -rewrite (the flag
// of the datadriven golden files, which this package links).
func rewriting() bool {
	f := flag.Lookup("rewrite")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	v, _ := g.Get().(bool)
	return v
}

// TestPinnedDigests pins the digest of one run per scenario × semantics in
// testdata/digests.txt, so that whatever changes a trace — the engine, a
// role, keyed randomness, the order Go files register kinds in (it must
// not) — shows as a diff of that file.
func TestPinnedDigests(t *testing.T) {
	var b strings.Builder
	b.WriteString(digestsHeader)
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			o, err := sc.Run(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}, sim.NewRandom(1), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", sc.Name, sem.Alias(), err)
			}
			fmt.Fprintf(&b, "%s %s %s\n", sc.Name, sem.Alias(), report.DigestString(o.Digest))
		}
	}
	file := filepath.Join("..", "testdata", "digests.txt")
	if rewriting() {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with -rewrite)", err)
	}
	got := strings.Split(b.String(), "\n")
	lines := strings.Split(string(want), "\n")
	pinned := map[string]bool{}
	for _, l := range lines {
		pinned[l] = true
	}
	current := map[string]bool{}
	for _, l := range got {
		current[l] = true
		if !pinned[l] {
			t.Errorf("now:    %s", l)
		}
	}
	for _, l := range lines {
		if !current[l] {
			t.Errorf("pinned: %s", l)
		}
	}
	if t.Failed() {
		t.Log("digests changed; if the change is meant, refresh with -rewrite and read the diff")
	}
}
