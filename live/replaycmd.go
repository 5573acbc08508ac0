package live

import (
	"strconv"
	"strings"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
)

// LiveCommand is the live command that repeats a run: cmd, a once run or
// once replay command line (runs.Command, or "once replay PLAN"), made
// once live's, with the target's flags of o — --target, --provider-addr
// and --restart-cmd (shell-quoted) — --db, its password masked, and
// --tick when the run was not at wall speed, so the line runs against
// your service again, not once's own, at the run's pace.
func LiveCommand(cmd string, o Options) string {
	var b strings.Builder
	switch {
	case strings.HasPrefix(cmd, "once run "):
		b.WriteString("once live " + strings.TrimPrefix(cmd, "once run "))
	case strings.HasPrefix(cmd, "once replay "):
		b.WriteString("once live --replay " + strings.TrimPrefix(cmd, "once replay "))
	default:
		b.WriteString(cmd)
	}
	if o.Target != "" {
		b.WriteString(" --target " + ShellQuote(MaskURL(o.Target)))
		if o.ProviderAddr != "" && o.ProviderAddr != DefaultProviderAddr {
			b.WriteString(" --provider-addr " + o.ProviderAddr)
		}
		if o.RestartCmd != "" {
			b.WriteString(" --restart-cmd " + ShellQuote(o.RestartCmd))
		}
	}
	if o.DSN != "" {
		b.WriteString(" --db " + ShellQuote(MaskURL(o.DSN)))
	}
	if o.Tick > 0 && o.Tick != time.Millisecond { // the run's pace: a service that reads X-Once-Now meets the same timings
		b.WriteString(" --tick " + strconv.FormatFloat(float64(o.Tick)/float64(time.Millisecond), 'g', -1, 64))
	}
	return b.String()
}

// SavePlans writes the fault plan each live run took (one per semantics,
// as once run --save does) and makes each run's replay line the live
// command that runs its plan against the same service: once live
// --replay FILE, with base's --target, --provider-addr, --restart-cmd and
// --db. It returns the files written.
func SavePlans(file string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, done []runs.Run, base Options) ([]string, error) {
	paths, err := runs.SavePlans(file, sc, seed, set, done)
	if err != nil {
		return nil, err
	}
	for i := range done {
		done[i].Replay = LiveCommand("once replay "+paths[i], base)
	}
	return paths, nil
}
