package live

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Flags are once live's command-line values that are checked together
// before anything starts: each combination that cannot mean anything is
// refused in one line (the command turns the error into exit 2).
type Flags struct {
	DB                    string
	Target, Restart       string
	RestartGiven          bool // --restart-cmd was on the command line, perhaps empty
	Provider              string
	AllowRemote, PrintEnv bool
	Args                  int    // scenario arguments given
	Replay                string // --replay FILE
	TickMs                float64
	Deadline, Ready       time.Duration
	Stderr                io.Writer
}

// ErrPrintEnv is Check's answer for --print-env given alone: print
// EnvLine(Provider) and exit 0.
var ErrPrintEnv = errors.New("live: print the environment")

// Check refuses a combination of flags that cannot mean anything and
// returns the run options they give, validated. With --print-env alone it
// returns ErrPrintEnv.
func (f Flags) Check() (Options, error) {
	if err := CheckListenAddr(f.Provider, f.AllowRemote || !(f.PrintEnv || f.Target != "")); err != nil {
		return Options{}, err // loopback unless --allow-remote; always an address a shell reads as one
	}
	if f.PrintEnv {
		if f.Args > 0 || f.Replay != "" {
			return Options{}, refuse("live_print_env_alone", nil, "--print-env: give nothing else; it prints the environment and exits")
		}
		return Options{}, ErrPrintEnv
	}
	switch {
	case f.Target == "" && (f.AllowRemote || f.Provider != DefaultProviderAddr):
		return Options{}, refuse("live_remote_without_target", nil, "--allow-remote and --provider-addr go with --target")
	case f.Target == "" && f.Restart != "":
		return Options{}, refuse("live_restart_without_target", nil, "--restart-cmd goes with --target: once restarts its own service itself")
	case f.Restart == "" && f.RestartGiven:
		return Options{}, refuse("live_restart_empty", nil, "--restart-cmd: give a command that kills your service and starts it again")
	}
	if f.Target != "" {
		if err := CheckTarget(f.Target, f.AllowRemote); err != nil {
			return Options{}, err
		}
	}
	if !(f.TickMs > 0 && f.TickMs <= 1000) { // NaN fails both comparisons
		return Options{}, refuse("live_tick", map[string]any{"Tick": fmt.Sprint(f.TickMs)}, fmt.Sprintf("--tick %v: want real milliseconds per virtual one in (0, 1000]", f.TickMs))
	}
	if f.Deadline <= 0 {
		return Options{}, refuse("live_deadline", map[string]any{"Deadline": f.Deadline.String()}, fmt.Sprintf("--deadline %s: want a positive duration", f.Deadline))
	}
	o := Options{DSN: f.DB, Tick: time.Duration(f.TickMs * float64(time.Millisecond)), Deadline: f.Deadline, Stderr: f.Stderr,
		Target: f.Target, RestartCmd: f.Restart, TargetReady: f.Ready}
	if f.Target != "" {
		o.ProviderAddr = f.Provider
	}
	return o, o.Validate()
}
