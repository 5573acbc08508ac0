//go:build integration

package main

import (
	"strings"
	"testing"

	"github.com/oncesim/once/lab/labtest"
)

// starter is a scenario and the node its starters play.
type starter struct {
	scenario, node, naive, idempotent string
}

var starters = []starter{
	{"double-billing", "service", "naive_service", "idempotent_service"},
	{"at-least-once-duplicate", "consumer", "naive_consumer", "idempotent_consumer"},
}

// command is how the test runs starter name in language lang.
func starterCommand(t *testing.T, lang, name string) string {
	t.Helper()
	root := labtest.Root(t)
	if lang == "python" {
		return labtest.Python(t) + " " + root + "/examples/lab/python/" + name + ".py"
	}
	return labtest.BuildGo(t, name)
}

// The "done when": the naive starters fail --check with a
// duplicated effect and a shrunk plan; the idempotent ones pass --check
// and --explore --max-faults 3 — in Python and in Go.
func TestIntegrationLabStarters(t *testing.T) {
	for _, lang := range []string{"go", "python"} {
		for _, s := range starters {
			t.Run(lang+"/"+s.naive, func(t *testing.T) {
				code, out, errOut := runLabCLI(t, s.scenario, "--node", s.node+"="+starterCommand(t, lang, s.naive), "--check")
				if code != exitViolation {
					t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
				}
				for _, want := range []string{"twice ✗", "shrunk: ", "minimal faults (", "replay: once lab " + s.scenario} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q:\n%s", want, out)
					}
				}
			})
			t.Run(lang+"/"+s.idempotent, func(t *testing.T) {
				cmd := s.node + "=" + starterCommand(t, lang, s.idempotent)
				if code, out, errOut := runLabCLI(t, s.scenario, "--node", cmd, "--check", "--crash", "0.2"); code != exitOK {
					t.Fatalf("--check: exit %d, want 0\n%s%s", code, out, errOut)
				}
				// Every schedule starts a process: a Go starter takes milliseconds,
				// Python tens of them (a minute per starter at the scenario's 2
				// operations on a busy machine), so Python explores 1 operation.
				faults, args := "3", []string{s.scenario, "--node", cmd, "--explore"}
				if lang == "python" {
					args = append(args, "--ops", "1")
					if testing.Short() {
						faults = "1"
					}
				}
				code, out, errOut := runLabCLI(t, append(args, "--max-faults", faults)...)
				if code != exitOK || !strings.Contains(out, "HOLDS: every schedule with ≤ "+faults+" faults keeps =1") {
					t.Fatalf("--explore: exit %d, want 0 and HOLDS\n%s%s", code, out, errOut)
				}
			})
		}
	}
}

// The race: the check-then-insert Python starter is caught by
// --explore with one preemption and no fault; the idempotent one, with
// insert_if_absent, is proved with two.
func TestIntegrationLabRace(t *testing.T) {
	racy := "service=" + starterCommand(t, "python", "racy_service")
	code, out, errOut := runLabCLI(t, "concurrent-same-key", "--node", racy, "--explore")
	if code != exitViolation || !strings.Contains(out, "faults (shrunk from") || !strings.Contains(out, "preempt from=service to=service msg=read_ok") {
		t.Errorf("racy: exit %d, want 1 and one preemption at a read\n%s%s", code, out, errOut)
	}
	idem := "service=" + starterCommand(t, "python", "idempotent_service")
	code, out, errOut = runLabCLI(t, "concurrent-same-key", "--node", idem, "--explore", "--max-preemptions", "2")
	if code != exitOK || !strings.Contains(out, "HOLDS: every schedule with ≤ 1 faults and ≤ 2 preemptions keeps =1") {
		t.Errorf("idempotent: exit %d, want HOLDS\n%s%s", code, out, errOut)
	}
}

// The reset capability changes nothing but the time: the Python and Go
// starters explore to the same report, statistics included, with reset
// (processes reused, drained at crashes) and with --no-reset (fresh
// processes), at 1, 2 and 4 workers.
func TestIntegrationLabResetSameReport(t *testing.T) {
	for _, lang := range []string{"python", "go"} {
		for _, s := range starters {
			t.Run(lang+"/"+s.idempotent, func(t *testing.T) {
				cmd := starterCommand(t, lang, s.idempotent)
				faults := "1" // the fresh processes' run is the slow one
				if lang == "python" && s.node == "service" {
					faults = "2" // the case: crashes drained, restarts reused
				}
				explore := func(node string, workers string) string {
					code, out, errOut := runLabCLI(t, s.scenario, "--node", s.node+"="+node, "--ops", "2", "--explore", "--max-faults", faults, "--workers", workers)
					if code != exitOK || !strings.Contains(out, "HOLDS") {
						t.Fatalf("%s, %s workers: exit %d, want 0 and HOLDS\n%s%s", node, workers, code, out, errOut)
					}
					return out
				}
				want := explore(cmd+" --no-reset", "2")
				for _, w := range []string{"1", "2", "4"} {
					if got := explore(cmd, w); got != want {
						t.Errorf("--workers %s with reset:\n%s\nwant, as with fresh processes:\n%s", w, got, want)
					}
				}
			})
		}
	}
}
