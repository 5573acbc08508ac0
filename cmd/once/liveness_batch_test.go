package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// batchLiveness is the liveness object of a matrix cell or a sweep point.
type batchLiveness struct {
	FaultsUntilMs int64  `json:"faults_until_ms"`
	SettleMs      int64  `json:"settle_ms"`
	Settled       bool   `json:"settled"`
	RunsUnsettled int    `json:"runs_unsettled"`
	Replay        string `json:"replay"`
	SwarmProfile  string `json:"swarm_profile"`
}

// once matrix --faults-until judges every run's liveness: the row without
// a lease has runs that never settle, and fails --check (exit 1) although
// its expectation (never-completes) holds; the rows with a lease settle;
// the replay line of the first unsettled seed is a run that does not
// settle either; without --faults-until there is no liveness object.
func TestMatrixLiveness(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	base := []string{"matrix", "stuck-processing-lease", "--seeds", "20", "--faults-until", "2s", "--settle", "30s"}
	out, _ := runCLI(t, exitOK, base...)
	for _, want := range []string{
		"liveness phase: the faults stop at 2s; every run must then settle — finish, every operation with its final outcome — within 30s",
		"liveness: 1 of 4 rows had runs that did not settle after the faults stopped ✗",
		"stuck-processing-lease idem: 11 of 20 runs did not settle; replay: once run stuck-processing-lease --semantics idem --seed 1 --ops 3 --faults-until 2s --settle 30s",
		"all 4 expectations held",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("matrix output lacks %q:\n%s", want, out)
		}
	}
	runCLI(t, exitViolation, append(base, "--check")...)
	// a scenario whose every run settles passes --check
	runCLI(t, exitOK, "matrix", "double-billing", "--seeds", "20", "--faults-until", "2s", "--settle", "30s", "--check")

	js, _ := runCLI(t, exitOK, append(base, "--format", "json")...)
	var doc struct {
		Cells []struct {
			Row      string         `json:"row"`
			Runs     int            `json:"runs"`
			Liveness *batchLiveness `json:"liveness"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	for i, c := range doc.Cells {
		l := c.Liveness
		if l == nil || l.FaultsUntilMs != 2000 || l.SettleMs != 30000 {
			t.Fatalf("cell %s: liveness %+v", c.Row, l)
		}
		if stuck := i == 0; l.Settled == stuck || (l.RunsUnsettled > 0) != stuck || (l.Replay != "") != stuck {
			t.Errorf("cell %s: liveness %+v, want settled=%v", c.Row, l, !stuck)
		}
	}
	first := doc.Cells[0].Liveness
	replayed, _ := runCLI(t, exitViolation, append(replayArgs(t, first.Replay), "--check")...)
	if !strings.Contains(replayed, "liveness: NOT settled ✗") {
		t.Errorf("the replay of the first unsettled seed settles:\n%s", replayed)
	}

	plain, _ := runCLI(t, exitOK, "matrix", "stuck-processing-lease", "--seeds", "5", "--format", "json")
	if strings.Contains(plain, `"liveness"`) {
		t.Error("a matrix without --faults-until has a liveness verdict")
	}
	_, errOut := runCLI(t, exitUsage, "matrix", "double-billing", "--settle", "3s")
	if !strings.Contains(errOut, "--settle 3s: it bounds the run after its faults stop; give --faults-until too") {
		t.Errorf("matrix --settle alone: %q", errOut)
	}
}

// once matrix --swarm --faults-until: the unsettled seed's replay line
// carries --swarm and its profile, and replays a run that does not settle.
func TestSwarmMatrixLiveness(t *testing.T) {
	js, _ := runCLI(t, exitOK, "matrix", "stuck-processing-lease", "--seeds", "20", "--swarm", "--faults-until", "2s", "--format", "json")
	var doc struct {
		Cells []struct {
			Liveness *batchLiveness `json:"liveness"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	l := doc.Cells[0].Liveness
	if l == nil || l.Settled || !strings.HasSuffix(l.Replay, " --faults-until 2s --swarm") || l.SwarmProfile == "" {
		t.Fatalf("swarm liveness %+v", l)
	}
	out, _ := runCLI(t, exitViolation, append(replayArgs(t, l.Replay), "--check")...)
	if !strings.Contains(out, "swarm profile") && !strings.Contains(out, l.SwarmProfile) {
		t.Errorf("the swarm replay does not print its profile %q:\n%s", l.SwarmProfile, out)
	}
}

// once sweep --faults-until judges every point: without a lease the runs
// do not settle, with one they do; text, JSON and the languages say so,
// and a sharded sweep merges to the same verdict.
func TestSweepLiveness(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	base := []string{"sweep", "stuck-processing-lease", "--vary", "lease=0:2s:1s", "--seeds", "20", "--faults-until", "2s", "--settle", "30s"}
	out, _ := runCLI(t, exitOK, base...)
	for _, want := range []string{
		"liveness: at 1 of 3 points, runs did not settle after the faults stopped ✗",
		"lease=0ms: 11 of 20 runs did not settle; replay: once run stuck-processing-lease --semantics idem --seed 1 --ops 3 --set lease=0ms --faults-until 2s --settle 30s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	for lang, want := range map[string]string{
		"ro": "lease=0ms: nestabilizate 11 din 20 de rulări",
		"ru": "lease=0ms: не пришли в покой 11 из 20 прогонов",
	} {
		out, _ := runCLI(t, exitOK, append(base, "--lang", lang)...)
		if !strings.Contains(out, want) {
			t.Errorf("--lang %s: sweep output lacks %q:\n%s", lang, want, out)
		}
	}
	js, _ := runCLI(t, exitOK, append(base, "--format", "json")...)
	var doc struct {
		Points []struct {
			Value    string         `json:"value"`
			Liveness *batchLiveness `json:"liveness"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	for i, p := range doc.Points {
		if l := p.Liveness; l == nil || l.Settled != (i > 0) || (l.RunsUnsettled == 11) != (i == 0) {
			t.Errorf("point %s: liveness %+v", p.Value, l)
		}
	}
	if got := shardThenMerge(t, 3, append(base, "--format", "json")...); got != js {
		t.Errorf("a sharded sweep with a liveness phase merges to another report:\n%s", firstDiff(got, js))
	}
}
