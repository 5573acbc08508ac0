package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --faults-until and --settle are honoured by once run (the liveness
// line, its JSON, --check's exit code, the replay line and a saved plan
// that once replay runs the same) and refused when they cannot mean
// anything.
func TestRunLivenessFlags(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	base := []string{"run", "stuck-processing-lease", "--semantics", "idem", "--seed", "1", "--faults-until", "2s", "--settle", "30s"}
	out, _ := runCLI(t, exitOK, base...)
	for _, want := range []string{
		"liveness: NOT settled ✗ — the faults stopped at 2s; at 7.242s still without a final outcome: op-3 (never completes)",
		"replay: once run stuck-processing-lease --semantics idem --seed 1 --ops 3 --faults-until 2s --settle 30s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	runCLI(t, exitViolation, append(base, "--check")...)
	out, _ = runCLI(t, exitOK, append(base, "--set", "lease=1s", "--check")...)
	if !strings.Contains(out, "liveness: settled ✓") {
		t.Errorf("with a lease, no settled line:\n%s", out)
	}

	js, _ := runCLI(t, exitOK, append(base, "--format", "json")...)
	var doc struct {
		Results []struct {
			Liveness *struct {
				FaultsUntilMs int64 `json:"faults_until_ms"`
				SettleMs      int64 `json:"settle_ms"`
				Settled       bool  `json:"settled"`
				Stuck         []struct {
					Op      int    `json:"op"`
					Outcome string `json:"outcome"`
				} `json:"stuck"`
			} `json:"liveness"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	l := doc.Results[0].Liveness
	if l == nil || l.FaultsUntilMs != 2000 || l.SettleMs != 30000 || l.Settled || len(l.Stuck) != 1 || l.Stuck[0].Outcome != "never-completes" {
		t.Errorf("JSON liveness %+v", l)
	}
	plain, _ := runCLI(t, exitOK, "run", "stuck-processing-lease", "--semantics", "idem", "--format", "json")
	if strings.Contains(plain, `"liveness"`) {
		t.Error("a run without --faults-until has a liveness verdict")
	}

	plan := filepath.Join(t.TempDir(), "plan.txt")
	runCLI(t, exitOK, append(base, "--save", plan)...)
	data, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "faults-until 2s\nsettle 30s\n") {
		t.Errorf("the saved plan lacks the liveness phase:\n%s", data)
	}
	replayed, _ := runCLI(t, exitOK, "replay", plan)
	if !strings.Contains(replayed, "op-3 (never completes)") {
		t.Errorf("the replay lost the liveness phase:\n%s", replayed)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--settle", "3s"}, "--settle 3s: it bounds the run after its faults stop; give --faults-until too"},
		{[]string{"--faults-until", "0s"}, "--faults-until 0s: want a positive duration"},
		{[]string{"--faults-until", "soon"}, "--faults-until"},
		{[]string{"--faults-until", "1s", "--settle", "-2s"}, "--settle"},
	} {
		_, errOut := runCLI(t, exitUsage, append([]string{"run", "double-billing"}, c.args...)...)
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q, want %q", c.args, errOut, c.want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("scenario double-billing\nsemantics alo\nsettle 3s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut := runCLI(t, exitUsage, "replay", bad)
	if !strings.Contains(errOut, "bad.txt:3:1: settle bounds the run after its faults stop: give faults-until too") {
		t.Errorf("a plan with settle alone: %q", errOut)
	}
}
