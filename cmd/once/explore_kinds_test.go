package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExploreRefusesAKindWithNoChoicePoint: a kind named with --faults
// that the topology never offers is refused with one line naming it and
// why; "all" leaves it out and lists the rest; --max-preemptions with no
// store is refused.
func TestExploreRefusesAKindWithNoChoicePoint(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "class: request", "class: reliable")
	s = strings.ReplaceAll(s, "class: response", "class: reliable")
	s = strings.Replace(s, "name: double-billing", "name: no-lossy-link", 1)
	file := filepath.Join(t.TempDir(), "no-lossy-link.yaml")
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", file, "--faults", "loss"}, "--faults loss: no-lossy-link has no lossy link"},
		{[]string{"-f", file, "--faults", "crash,ack-loss"}, "--faults ack-loss: no-lossy-link has no lossy link"},
		{[]string{"double-billing", "--faults", "preempt"}, "--faults preempt: double-billing has no store operation to preempt"},
		{[]string{"double-billing", "--max-preemptions", "1"}, "--max-preemptions 1: double-billing has no store operation to preempt"},
	} {
		code, stdout, stderr := runOnce(append([]string{"explore", "--timing=false"}, c.args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
	out, _ := runCLI(t, exitOK, "explore", "-f", file, "--faults", "all", "--max-faults", "1", "--timing=false")
	if first := strings.SplitN(out, "\n", 2)[0]; !strings.HasSuffix(first, "faults of crash,pause") {
		t.Errorf("--faults all on a file with no lossy link: header %q, want the kinds with choice points (crash,pause)", first)
	}
}
