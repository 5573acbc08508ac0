// Package golden decides which golden files a test run with its rewrite
// flag may change: all of them, or only those `make update ONLY=…` asked
// for — a catalog scenario's (its canonical trace, digests, explore
// verdicts, diagrams and screens) or a family's (all canonical traces,
// all CLI scripts, …). A golden outside what was asked is compared as
// without the flag, so drift elsewhere shows as a failure naming the
// file instead of being blessed with the change that was asked for.
//
// Tests use it; the binary does not.
package golden

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// Env is the environment variable `make update` passes ONLY in: a
// comma-separated list of scenario names and families; empty means all.
const Env = "ONCE_ONLY"

// Families are the kinds of golden file `make update` rewrites, as ONLY
// names them.
var Families = []string{
	"cli",              // testdata/cli: the CLI scripts
	"lesson",           // testdata/lesson: the plain lesson's transcripts
	"traces",           // testdata/traces: a canonical trace per scenario
	"digests",          // testdata/digests.txt: a digest per scenario and semantics
	"explore-verdicts", // testdata/explore_verdicts.txt: the catalog's explore blocks
	"reference",        // docs/scenario-files.md: the scenario file reference
	"svg",              // testdata/svg: diagrams
	"screens",          // tui/testdata: TUI screens in Romanian and Russian
	"catalog-index",    // scenarios/catalog_index.json: names and summaries for list and completion
	"docs",             // README.md and docs/: the generated blocks (catalog table and counts, flag tables)
}

// Only is what ONLY asked for: nil for everything.
func Only() []string {
	v := strings.TrimSpace(os.Getenv(Env))
	if v == "" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Asked reports whether a golden of family about scenario ("" for one
// that belongs to no scenario, or to many) may be rewritten.
func Asked(family, scenario string) bool {
	only := Only()
	return only == nil || slices.Contains(only, family) || (scenario != "" && slices.Contains(only, scenario))
}

// Rewrite reports whether a test whose rewrite flag is on may write the
// golden of family about scenario: the flag, narrowed by ONLY.
func Rewrite(flagOn bool, family, scenario string) bool {
	return flagOn && Asked(family, scenario)
}

// Left is the sentence a test adds to a difference it found in a golden
// of family about scenario ("" for none) that its rewrite flag left alone
// because ONLY did not ask for it; "" when the flag is off.
func Left(flagOn bool, family, scenario string) string {
	if !flagOn {
		return ""
	}
	fix := "ONLY=" + family
	if scenario != "" {
		fix = "ONLY=" + scenario + " (or " + fix + ")"
	}
	return fmt.Sprintf(" (not rewritten: ONLY=%s does not ask for it; make update %s rewrites it)", strings.Join(Only(), ","), fix)
}

// Check refuses an ONLY that names neither a family nor one of the
// scenarios given: a typo would rewrite nothing and say so nowhere.
func Check(scenarios []string) error {
	for _, s := range Only() {
		if !slices.Contains(Families, s) && !slices.Contains(scenarios, s) {
			return fmt.Errorf("ONLY=%s: %q is neither a scenario of the catalog nor a family of golden files (%s)", os.Getenv(Env), s, strings.Join(Families, ", "))
		}
	}
	return nil
}

// RewriteFlag reports whether the test binary's flag name (such as
// datadriven's -rewrite) is set to true.
func RewriteFlag(name string) bool {
	f := flag.Lookup(name)
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

// Narrow runs fn as subtest sub of t with the boolean flag name
// (datadriven's -rewrite, which rewrites a whole script file) set to
// on && Asked(family, scenario), and restores it: datadriven then
// rewrites only the scripts asked for and checks the others, and a
// script's failure (datadriven stops at the first) ends its subtest, not
// the whole update. Tests calling it must not run in parallel.
func Narrow(t *testing.T, sub, name, family, scenario string, fn func(t *testing.T)) {
	on := RewriteFlag(name)
	t.Run(sub, func(t *testing.T) {
		if on && !Asked(family, scenario) {
			f := flag.Lookup(name)
			_ = f.Value.Set("false")
			defer func() { _ = f.Value.Set("true") }()
			defer func() {
				if t.Failed() {
					t.Log(strings.TrimSpace(Left(true, family, scenario)))
				}
			}()
		}
		fn(t)
	})
}

// Block checks, or with the rewrite flag name on and family asked for,
// rewrites, the block of file that starts with the line start and ends
// with the line end (both kept): a generated part of a hand-written page,
// such as README.md's scenario table. want is the block's text from start
// to end inclusive. A difference fails t at its first differing line.
func Block(t *testing.T, file, start, end, want, name, family string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	i, j := strings.Index(page, start), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the generated block's markers %q … %q", file, start, end)
	}
	got := page[i : j+len(end)]
	if got == want {
		return
	}
	on := RewriteFlag(name)
	if Rewrite(on, family, "") {
		if err := os.WriteFile(file, []byte(page[:i]+want+page[j+len(end):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := range max(len(g), len(w)) {
		var gl, wl string
		if k < len(g) {
			gl = g[k]
		}
		if k < len(w) {
			wl = w[k]
		}
		if gl != wl {
			t.Fatalf("%s's generated block differs at its line %d:\n  page:      %s\n  generated: %s\n(make update ONLY=%s writes it)%s", file, k+1, gl, wl, family, Left(on, family, ""))
		}
	}
}
