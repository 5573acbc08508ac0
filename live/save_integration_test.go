//go:build integration

package live

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// liveResult is the part of once live --format json a replay must repeat.
type liveResult struct {
	Status    string   `json:"status"`
	FaultPlan []string `json:"fault_plan"`
	Replay    string   `json:"replay"`
	Ops       []struct {
		Effects int32 `json:"effects"`
	} `json:"ops"`
	Live *struct {
		Mode, Target, Provider string
		ProviderMode           string `json:"provider_mode"`
	} `json:"live"`
}

func liveJSON(t *testing.T, out string) liveResult {
	t.Helper()
	var doc struct {
		Results []liveResult `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Results) != 1 {
		t.Fatalf("once live --format json: %v, %d results:\n%s", err, len(doc.Results), out)
	}
	return doc.Results[0]
}

func effectsOf(r liveResult) []int32 {
	var out []int32
	for _, op := range r.Ops {
		out = append(out, op.Effects)
	}
	return out
}

// TestIntegrationLiveSaveReplay saves a live run's fault plan and replays
// it live with the command the run printed: once's own service (the
// simulator's double-billing, at-least-once, seed 3) and the naive Go
// example under --target (duplicates) give the same verdict and the same
// effects per operation again; the JSON carries the plan, the live
// replay line, the mode, the target and the provider's URL and mode.
func TestIntegrationLiveSaveReplay(t *testing.T) {
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "naive"), "../examples/live/go/naive")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build naive: %v\n%s", err, out)
	}
	provider := freeAddr(t)
	target := startService(t, provider, filepath.Join(bin, "naive"))
	for _, c := range []struct {
		name string
		args []string
		mode string
	}{
		{"once's service", []string{"live", "double-billing", "--semantics", "alo", "--seed", "3"}, "service"},
		{"--target naive", []string{"live", "double-billing", "--semantics", "idem", "--seed", "1", "--dup", "0.3", "--loss", "0", "--ack-loss", "0",
			"--target", target, "--provider-addr", provider}, "target"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := filepath.Join(t.TempDir(), "run.plan")
			out, errs, code := once(t, append(c.args, "--save", plan, "--format", "json")...)
			if code != 0 || !strings.Contains(errs, "saved fault plan "+plan) {
				t.Fatalf("--save: exit %d:\n%s", code, errs)
			}
			first := liveJSON(t, out)
			if len(first.FaultPlan) == 0 || first.Live == nil || first.Live.Mode != c.mode || first.Live.ProviderMode == "" {
				t.Fatalf("the JSON names no fault plan or live mode: %+v", first)
			}
			if c.mode == "target" && (first.Live.Target != target || first.Live.Provider != "http://"+provider) {
				t.Errorf("the JSON's live: %+v, want target %s and provider http://%s", *first.Live, target, provider)
			}
			replay, ok := strings.CutPrefix(first.Replay, "once live --replay "+plan)
			if !ok || (c.mode == "target" && !strings.Contains(replay, "--target ")) {
				t.Fatalf("replay line %q: want once live --replay %s with the target's flags", first.Replay, plan)
			}
			cmd := shellCmd(onceBinary + " live --replay " + plan + replay + " --format json")
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", first.Replay, err)
			}
			again := liveJSON(t, string(got))
			if again.Status != first.Status || !reflect.DeepEqual(effectsOf(again), effectsOf(first)) {
				t.Errorf("replayed: %s %v, the saved run %s %v", again.Status, effectsOf(again), first.Status, effectsOf(first))
			}
		})
	}
}
