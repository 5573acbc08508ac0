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

// TestExploreListsTheKindsThatBranched: HOLDS says which fault kinds the
// search actually branched on — a loss on a response link is ack-loss,
// not loss; a kind enumerated but never reached is left out; no budget
// means no branch — and the list, a union over the search's parts, is the
// same for 1 and 2 workers on a search large enough to be split (40 271 states).
func TestExploreListsTheKindsThatBranched(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"double-billing", "--semantics", "idem", "--faults", "ack-loss"}, "faults that branched: ack-loss\n"},
		{[]string{"double-billing", "--semantics", "idem", "--faults", "loss,crash", "--max-faults", "1"}, "faults that branched: loss, crash\n"},
		{[]string{"double-billing", "--semantics", "idem", "--max-faults", "0"}, "faults that branched: none"},
		{[]string{"concurrent-same-key", "--set", "lock=unique-insert", "--faults", "ack-loss"}, "faults that branched: ack-loss, preempt\n"},
	} {
		out, _ := runCLI(t, exitOK, append([]string{"explore", "--timing=false"}, c.args...)...)
		if !strings.Contains(out, "HOLDS") || !strings.Contains(out, c.want) {
			t.Errorf("explore %q:\n%s\nwant HOLDS and %q", c.args, out, c.want)
		}
	}
	var outs [2]string
	for i, w := range []string{"1", "2"} {
		outs[i], _ = runCLI(t, exitOK, "explore", "double-billing", "--semantics", "idem", "--ops", "5", "--max-faults", "4", "--workers", w, "--timing=false", "--format", "json")
	}
	if outs[0] != outs[1] {
		t.Errorf("1 and 2 workers report differently:\n%s\n---\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], "\"branched\": [\n    \"loss\",\n    \"ack-loss\",\n    \"crash\"\n  ]") {
		t.Errorf("explore --format json: want \"branched\": [loss, ack-loss, crash], got\n%s", outs[0])
	}
}
