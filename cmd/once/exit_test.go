package main

import (
	"io"
	"testing"
)

// TestExitTable runs every code of the exit table (root.go, README's
// "Exit codes") on the commands that judge: done, a violation or a
// counterexample, bad input, unfinished.
func TestExitTable(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"run held", []string{"run", "double-billing", "--semantics", "idem", "--check"}, exitOK},
		{"run without --check reports a violation", []string{"run", "double-billing", "--semantics", "idem", "--set", "store=memory", "--crash", "0.5"}, exitOK},
		{"run violated", []string{"run", "double-billing", "--semantics", "idem", "--set", "store=memory", "--crash", "0.5", "--check"}, exitViolation},
		{"run unknown by budget", []string{"run", "double-billing", "--max-events", "5", "--check"}, exitIncomplete},
		{"run bad input", []string{"run", "no-such-scenario"}, exitUsage},
		{"explore counterexample", []string{"explore", "double-billing", "--semantics", "alo", "--max-faults", "1", "--check"}, exitViolation},
		{"explore holds", []string{"explore", "double-billing", "--semantics", "idem", "--max-faults", "1", "--check"}, exitOK},
		{"explore cut by its state budget", []string{"explore", "double-billing", "--semantics", "idem", "--max-states", "10", "--check"}, exitIncomplete},
		{"explore cut, no --check", []string{"explore", "double-billing", "--semantics", "idem", "--max-states", "10"}, exitOK},
		{"matrix held", []string{"matrix", "double-billing", "--seeds", "20", "--check", "--workers", "1"}, exitOK},
		{"matrix unknown by budget", []string{"matrix", "double-billing", "--seeds", "2", "--max-events", "5", "--check", "--workers", "1"}, exitIncomplete},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := execute(c.args, io.Discard, io.Discard); got != c.want {
				t.Errorf("once %v: exit %d, want %d", c.args, got, c.want)
			}
		})
	}
}
