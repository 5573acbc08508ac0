package golden

import (
	"flag"
	"os"
	"strings"
	"testing"
)

func TestAskedFollowsOnly(t *testing.T) {
	for _, c := range []struct {
		only, family, scenario string
		want                   bool
	}{
		{"", "traces", "double-billing", true},
		{"", "cli", "", true},
		{"double-billing", "traces", "double-billing", true},
		{"double-billing", "traces", "outbox", false},
		{"double-billing", "cli", "", false}, // a family of many scenarios is not one scenario's
		{"traces", "traces", "outbox", true},
		{"traces", "digests", "outbox", false},
		{"outbox, svg", "svg", "double-billing", true},
		{"outbox, svg", "digests", "outbox", true},
		{"outbox, svg", "digests", "double-billing", false},
	} {
		t.Setenv(Env, c.only)
		if got := Asked(c.family, c.scenario); got != c.want {
			t.Errorf("ONLY=%q: Asked(%q, %q) = %v, want %v", c.only, c.family, c.scenario, got, c.want)
		}
		if Rewrite(false, c.family, c.scenario) {
			t.Errorf("ONLY=%q: Rewrite without the flag", c.only)
		}
	}
}

func TestCheckRefusesUnknownNames(t *testing.T) {
	known := []string{"double-billing", "outbox"}
	t.Setenv(Env, "double-billing,traces")
	if err := Check(known); err != nil {
		t.Errorf("known names refused: %v", err)
	}
	t.Setenv(Env, "double-biling")
	err := Check(known)
	if err == nil || !strings.Contains(err.Error(), `"double-biling"`) || !strings.Contains(err.Error(), "explore-verdicts") {
		t.Errorf("a typo gave %v, want it named with the families listed", err)
	}
}

var rewriteForTest = flag.Bool("rewrite-for-test", false, "a flag Narrow turns off and on")

func TestNarrowTurnsTheFlagOffOutsideOnlyAndRestoresIt(t *testing.T) {
	_ = flag.Set("rewrite-for-test", "true")
	t.Cleanup(func() { _ = flag.Set("rewrite-for-test", "false") })
	t.Setenv(Env, "outbox")
	var inside []bool
	Narrow(t, "double-billing", "rewrite-for-test", "traces", "double-billing", func(*testing.T) { inside = append(inside, *rewriteForTest) })
	Narrow(t, "outbox", "rewrite-for-test", "traces", "outbox", func(*testing.T) { inside = append(inside, *rewriteForTest) })
	if inside[0] || !inside[1] {
		t.Errorf("inside Narrow the flag was %v, want off for double-billing and on for outbox", inside)
	}
	if !*rewriteForTest {
		t.Error("Narrow did not restore the flag")
	}
	if !strings.Contains(Left(true, "traces", ""), "ONLY=outbox") || Left(false, "traces", "") != "" {
		t.Errorf("Left = %q / %q", Left(true, "traces", ""), Left(false, "traces", ""))
	}
}

// Block rewrites only what lies between its markers, and only when the
// flag is on and the family asked for.
func TestBlockRewritesBetweenItsMarkers(t *testing.T) {
	file := t.TempDir() + "/page.md"
	page := "intro\n<!-- a -->\nold\n<!-- b -->\noutro\n"
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "<!-- a -->\nnew\n<!-- b -->"
	_ = flag.Set("rewrite-for-test", "true")
	t.Cleanup(func() { _ = flag.Set("rewrite-for-test", "false") })
	t.Setenv(Env, "docs")
	Block(t, file, "<!-- a -->", "<!-- b -->", want, "rewrite-for-test", "docs")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "intro\n<!-- a -->\nnew\n<!-- b -->\noutro\n" {
		t.Errorf("rewritten page %q", data)
	}
	Block(t, file, "<!-- a -->", "<!-- b -->", want, "rewrite-for-test", "docs") // now equal: no failure
}
