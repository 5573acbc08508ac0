package explore

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestValidateNamesTheBudget: every refused budget names its flag and
// its value ("--max-states -1" was "--max-depth and --max-states must
// not be negative", naming neither which nor what).
func TestValidateNamesTheBudget(t *testing.T) {
	given := func(string) bool { return true }
	for _, c := range []struct {
		depth, states int
		want          string
	}{
		{-1, 10, "--max-depth -1: want at least 1"},
		{10, -1, "--max-states -1: want at least 1"},
		{0, 10, "--max-depth 0: want at least 1"},
		{10, 0, "--max-states 0: want at least 1"},
		{-5, -7, "--max-depth -5: want at least 1"},
	} {
		b := Bounds{Reduce: "all"}
		err := b.Validate(1, c.depth, c.states, given)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate(depth %d, states %d) = %v, want %q", c.depth, c.states, err, c.want)
		}
	}
	b := Bounds{Reduce: "all"}
	if err := b.Validate(1, 0, 0, func(string) bool { return false }); err != nil {
		t.Errorf("budgets not given (0: the defaults): %v", err)
	}
}

// TestResolveNamesSetInAParameterError: a --set explore cannot use names
// --set, as run, sweep, lab and live do (explore said only "unknown
// parameter …" or "parameter timeout: 0ms is outside …").
func TestResolveNamesSetInAParameterError(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ set, want string }{
		{"colour=blue", `--set: unknown parameter "colour"`},
		{"timeout=0", "--set: parameter timeout: 0ms is outside"},
		{"store=redis", `--set: parameter store: "redis" is not one of`},
	} {
		b := Bounds{Reduce: "all"}
		b.Defaults(sc, nil)
		_, _, _, err := b.Resolve(sc, sim.AtLeastOnce, []string{c.set}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("--set %s: %v, want %q", c.set, err, c.want)
		}
	}
}
