package main

import (
	"strings"
	"testing"
)

// TestVersionFlag: once --version prints the build's version line.
func TestVersionFlag(t *testing.T) {
	out, _ := runCLI(t, exitOK, "--version")
	if !strings.HasPrefix(out, "once ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version printed %q", out)
	}
}

// TestCompletion: the shells' scripts, and the completions behind them:
// scenario names, semantics, --set keys and fault kinds.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		if out, _ := runCLI(t, exitOK, "completion", shell); !strings.Contains(out, "once") {
			t.Errorf("completion %s: %.80q", shell, out)
		}
	}
	if _, stderr := runCLI(t, exitUsage, "completion", "tcsh"); !strings.Contains(stderr, `unknown command "tcsh"`) {
		t.Errorf("completion tcsh: stderr %q, want it refused", stderr)
	}
	for _, c := range []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"run", "double-"}, []string{"double-billing\n"}, []string{"two-generals"}},
		{[]string{"explore", "two-"}, []string{"two-generals\n"}, nil},
		{[]string{"run", "double-billing", "--semantics", ""}, []string{"amo\n", "alo\n", "idem\n", "all\n"}, nil},
		{[]string{"run", "double-billing", "--set", "tt"}, []string{"ttl=\n"}, []string{"store="}},
		{[]string{"explore", "double-billing", "--faults", "loss,d"}, []string{"loss,dup\n"}, []string{"loss,loss"}},
		{[]string{"run", "double-billing", "--format", ""}, []string{"svg\n", "mermaid\n"}, nil},
	} {
		out, _ := runCLI(t, exitOK, append([]string{"__complete"}, c.args...)...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("complete %v: %q lacks %q", c.args, out, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(out, n) {
				t.Errorf("complete %v: %q offers %q", c.args, out, n)
			}
		}
	}
}
