package scenarios_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

const digestsHeader = `# The trace digest of every catalog scenario under each of its semantics:
# seed 1, the scenario's default operations, faults and parameters, and a
# hash of the run's text trace (report.WriteTimeline). Any change to a
# digest is a visible diff here. Refresh with
#   make update ONLY=digests      (or ONLY=NAME for one scenario's lines)
# which refuses to change a digest whose trace text is unchanged unless
# sim.DigestFormat (recorded below) was bumped: a digest that moves with
# the same trace depends on something it must not (registration order, a
# file name) — or its format changed, on purpose, in that commit.
`

// digestFormatLine records sim.DigestFormat in testdata/digests.txt.
const digestFormatLine = "# digest-format "

// rewriting reports whether the test binary runs with -rewrite (the flag
// of the datadriven golden files, which this package links).
func rewriting() bool { return golden.RewriteFlag("rewrite") }

// pinnedRun is one line of testdata/digests.txt.
type pinnedRun struct {
	digest, text string
}

// readPinned parses testdata/digests.txt: the digest format it records and
// its runs by "scenario semantics".
func readPinned(data string) (format int, runs map[string]pinnedRun, err error) {
	runs = map[string]pinnedRun{}
	for i, l := range strings.Split(data, "\n") {
		if v, ok := strings.CutPrefix(l, digestFormatLine); ok {
			if format, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return 0, nil, fmt.Errorf("line %d: digest format %q: %w", i+1, v, err)
			}
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 4 {
			return 0, nil, fmt.Errorf("line %d: want scenario semantics digest trace-hash, got %q", i+1, l)
		}
		runs[f[0]+" "+f[1]] = pinnedRun{digest: f[2], text: f[3]}
	}
	return format, runs, nil
}

// TestPinnedDigests pins the digest of one run per scenario × semantics in
// testdata/digests.txt, so that whatever changes a trace — the engine, a
// role, keyed randomness, the order Go files register kinds in (it must
// not) — shows as a diff of that file.
func TestPinnedDigests(t *testing.T) {
	var b strings.Builder
	b.WriteString(digestsHeader)
	fmt.Fprintf(&b, "%s%d\n# scenario semantics digest trace-hash\n", digestFormatLine, sim.DigestFormat)
	now := map[string]pinnedRun{}
	var order []string
	scenarioOf := map[string]string{}
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}
			cfg, err := sc.Config(set)
			if err != nil {
				t.Fatalf("%s %s: %v", sc.Name, sem.Alias(), err)
			}
			var tr sim.Trace
			w, err := sim.NewWorld(cfg, sim.NewRandom(1), &tr)
			if err != nil {
				t.Fatalf("%s %s: %v", sc.Name, sem.Alias(), err)
			}
			o := w.Run()
			var text strings.Builder
			if err := report.WriteTimeline(&text, cfg.Topology, tr.Events); err != nil {
				t.Fatal(err)
			}
			h := fnv.New64a()
			h.Write([]byte(text.String()))
			key := sc.Name + " " + sem.Alias()
			run := pinnedRun{digest: report.DigestString(o.Digest), text: fmt.Sprintf("%016x", h.Sum64())}
			now[key] = run
			order = append(order, key)
			scenarioOf[key] = sc.Name
		}
	}
	file := filepath.Join("..", "testdata", "digests.txt")
	data, err := os.ReadFile(file)
	if err != nil && !(rewriting() && os.IsNotExist(err)) {
		t.Fatalf("%v (create it with -rewrite)", err)
	}
	format, pinned, err := readPinned(string(data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if rewriting() {
		refused := 0
		for _, key := range order {
			p, ok := pinned[key]
			if !golden.Asked("digests", scenarioOf[key]) { // outside ONLY: kept, its drift shown
				if ok {
					if p != now[key] {
						t.Errorf("pinned: %s %s %s\nnow:    %s %s %s%s", key, p.digest, p.text, key, now[key].digest, now[key].text, golden.Left(true, "digests", scenarioOf[key]))
					}
					now[key] = p
				}
				continue
			}
			if ok && format == sim.DigestFormat && p.digest != now[key].digest && p.text == now[key].text {
				t.Errorf("%s: digest %s → %s with the same trace text: refused (the digest depends on something outside the trace; if its format changed on purpose, bump sim.DigestFormat)", key, p.digest, now[key].digest)
				refused++
			}
		}
		if refused > 0 {
			t.Fatalf("%s not rewritten: %d digests changed with unchanged traces", file, refused)
		}
		for _, key := range order {
			fmt.Fprintf(&b, "%s %s %s\n", key, now[key].digest, now[key].text)
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if format != sim.DigestFormat {
		t.Errorf("%s records digest format %d, the build's is %d (refresh with -rewrite)", file, format, sim.DigestFormat)
	}
	for _, key := range order {
		p, ok := pinned[key]
		switch {
		case !ok:
			t.Errorf("now:    %s %s (not pinned)", key, now[key].digest)
		case p != now[key]:
			t.Errorf("pinned: %s %s %s\nnow:    %s %s %s", key, p.digest, p.text, key, now[key].digest, now[key].text)
		}
	}
	for key := range pinned {
		if _, ok := now[key]; !ok {
			t.Errorf("pinned: %s (no such run now)", key)
		}
	}
	if t.Failed() {
		t.Log("digests changed; if the change is meant, refresh with -rewrite and read the diff")
	}
}
