package live

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Planned is one live run to make: its settings and its chooser.
type Planned struct {
	Settings scenarios.Settings
	Config   *sim.Config
	Chooser  sim.Chooser
	Replay   string // the command that repeats it
	Planned  int    // faults in the plan (a replayed plan), for the hit count
}

// CheckAll refuses, before anything starts, a run that live cannot make
// (with a target: that once cannot make against a service of yours).
func CheckAll(sc *scenarios.Scenario, ps []Planned, target, restart bool) error {
	for _, p := range ps {
		if err := Supports(p.Config, &p.Settings.Faults); err != nil {
			return inScenario(sc.Name, err)
		}
		if target {
			if err := SupportsTarget(p.Config, &p.Settings.Faults, restart); err != nil {
				return inScenario(sc.Name, err)
			}
			if err := targetParams(p.Settings.Params); err != nil {
				return inScenario(sc.Name, err)
			}
		}
	}
	return nil
}

// RunAll makes the runs one after another, each with base's options and
// its own config, faults and chooser, saying on base.Stderr what runs
// where; verbose logs every process started there too. The trace is kept
// for every run, as once run keeps it: the ledger lists each operation's
// charges (transaction ids) from it.
func RunAll(ctx context.Context, base Options, sc *scenarios.Scenario, ps []Planned, verbose bool) ([]runs.Run, error) {
	stderr := base.Stderr
	db := "SQLite"
	if base.DSN != "" {
		db = "PostgreSQL"
	}
	var done []runs.Run
	for _, p := range ps {
		if base.Target != "" {
			crashes := "no crash, pause or preempt: once has no process of yours"
			if base.RestartCmd != "" {
				crashes = fmt.Sprintf("crashes by --restart-cmd %q at the crash points the fault layer sees; no pause or preempt", base.RestartCmd)
			}
			fmt.Fprintf(stderr, "live: %s %s against %s (provider on %s, ledger on %s); %s; %s\n",
				sc.Name, p.Settings.Semantics.Alias(), MaskURL(base.Target), base.ProviderAddr, db, crashes, ClockNote(base.Target, base.Tick))
		} else {
			fmt.Fprintf(stderr, "live: %s %s on %s…\n", sc.Name, p.Settings.Semantics.Alias(), db)
		}
		var logw io.Writer
		if verbose {
			logw = stderr
		}
		trace := &sim.Trace{}
		opts := base
		// The faults the run took are written down, as the simulator's
		// runs write theirs: the JSON's fault_plan and --save read them.
		taken := sim.NewRecording(p.Chooser)
		ev := &report.LiveDoc{}
		opts.Config, opts.Faults, opts.Chooser, opts.Trace, opts.Log, opts.Evidence = p.Config, &p.Settings.Faults, taken, trace, logw, ev
		out, err := Run(ctx, opts)
		if s, ok := p.Chooser.(*sim.Scripted); ok {
			fmt.Fprintf(stderr, "live: %d of %d planned fault(s) hit\n", s.Used(), p.Planned)
		}
		if errors.Is(err, ErrNotLive) {
			return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		if err != nil {
			return nil, err
		}
		done = append(done, runs.Run{Config: p.Config, Outcome: out, Trace: trace, Faults: taken.Faults,
			Replay: LiveCommand(p.Replay, base), Live: ev})
	}
	return done, nil
}

// serviceOnlyParams are the --set parameters that choose once's own
// service's code (the bug or its fix): with --target your service's code
// decides, so they would mean nothing. The client's (key, keys), the
// provider's mode, the workload's and the crash points' (mark, store) do
// apply.
var serviceOnlyParams = []string{"reuse", "lease", "lock", "on-store-down", "on-timeout", "key-scope", "replay"}

// targetParams refuses, in one line, a --set that means nothing against
// your service.
func targetParams(params map[string]string) error {
	for _, k := range serviceOnlyParams {
		if v, ok := params[k]; ok {
			return fmt.Errorf("%w: --set %s=%s: with --target your service's code decides this, not a parameter; leave it out", ErrNotLive, k, v)
		}
	}
	return nil
}
