package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// In English a reason is the checker's own sentence (the JSON's); in
// Romanian and Russian it is its message, with the count in the
// language's plural form and nothing left as a template or an id.
func TestReasonRendered(t *testing.T) {
	reasons := []sim.Reason{
		{Kind: sim.ReasonDuplicate, Op: 2, N: 2, Promise: sim.ExactlyOne},
		{Kind: sim.ReasonDivergent, Op: 3, N: 2, Promise: sim.ExactlyOne},
		{Kind: sim.ReasonNoEffectYet, Op: 1, Promise: sim.AtLeastOne},
		{Kind: sim.ReasonNoEffect, Op: 4, Promise: sim.AtLeastOne},
		{Kind: sim.ReasonUnfinished, Promise: sim.AtMostOne},
		{Kind: sim.ReasonNeverDone, Op: 3, N: 409, Promise: sim.ExactlyOne},
	}
	for _, r := range reasons {
		if got := English.Reason(r); got != r.String() {
			t.Errorf("English %+v: %q, want the checker's %q", r, got, r.String())
		}
		for _, l := range Translated() {
			got := l.Reason(r)
			if got == r.String() || strings.Contains(got, "{{") || strings.HasPrefix(got, "reason.") {
				t.Errorf("%s %+v: %q is not translated", l, r, got)
			}
			if r.Op != 0 && !strings.Contains(got, r.Op.String()) {
				t.Errorf("%s %+v: %q does not name %s", l, r, got, r.Op)
			}
		}
	}
	if len(reasonIDs) != len(reasons) {
		t.Errorf("reasonIDs has %d kinds, the test %d: a new kind needs its case here", len(reasonIDs), len(reasons))
	}
	// The plural forms a student reads: 1, 2–4, 5–20, 21 in Russian;
	// 1, 2–19, 20+ ("de") in Romanian.
	dup := func(n int32) sim.Reason {
		return sim.Reason{Kind: sim.ReasonDuplicate, Op: 2, N: n, Promise: sim.AtMostOne}
	}
	for _, c := range []struct {
		l    Lang
		n    int32
		want string
	}{
		{Russian, 2, "у op-2 2 эффекта, а обещано ≤1"},
		{Russian, 5, "у op-2 5 эффектов, а обещано ≤1"},
		{Russian, 21, "у op-2 21 эффект, а обещано ≤1"},
		{Romanian, 2, "op-2 are 2 efecte, se cerea ≤1"},
		{Romanian, 20, "op-2 are 20 de efecte, se cerea ≤1"},
	} {
		if got := c.l.Reason(dup(c.n)); got != c.want {
			t.Errorf("%s, %d effects: %q, want %q", c.l, c.n, got, c.want)
		}
	}
}

// idUseAll finds the ids the reports name literally through any lookup,
// the current language's (lang.T, lang.Nf, …) or a given one's (l.Tf).
var idUseAll = regexp.MustCompile(`\b(?:lang|l)\.(?:T|Tf|N|Nf)\("([^"]+)"`)

// Every id the reports, the SVG renderer and the commands look up —
// counts with extra values (Nf) and the checker's reasons included —
// exists in English; the drop reasons an SVG or Mermaid diagram names
// have their word.
func TestReportIDsExist(t *testing.T) {
	en := messageIDs(loaded().uiMsgs[English])
	var used []string
	for _, dir := range []string{"..", "../svg", "../../cmd/once"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range idUseAll.FindAllStringSubmatch(string(data), -1) {
				used = append(used, m[1])
			}
		}
	}
	if !slices.Contains(used, "matrix.subtitle") || !slices.Contains(used, "explore.header") {
		t.Fatalf("the pattern no longer finds the reports' ids (%d found)", len(used))
	}
	for _, id := range reasonIDs {
		used = append(used, id)
	}
	for _, r := range []sim.DropReason{sim.DropLoss, sim.DropPartition, sim.DropDown} {
		used = append(used, "svg."+r.String())
	}
	for _, id := range used {
		if !slices.Contains(en, id) {
			t.Errorf("message %q is used but locales/*.en.toml lacks it", id)
		}
	}
}
