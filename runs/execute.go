package runs

import (
	"fmt"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Options says what a run keeps besides its outcome.
type Options struct {
	// Recorder receives every event of the run. Nil keeps the full trace
	// in Run.Trace, which every renderer reads.
	Recorder sim.Recorder
	// NoTrace keeps no trace (Recorder must be nil): a run judged by its
	// outcome alone, such as a counterexample checked before a merge.
	NoTrace bool
	// Continue, when set, is asked before every step; the run ends as it
	// stands when it answers false (the lab ends a run whose node failed).
	Continue func() bool
	// Memory, when set, is charged for what the run keeps: its operations
	// and its trace. A run that would pass the account's limit is refused
	// (too many operations) or cut where its trace reaches it, with a
	// *MemoryError.
	Memory *Memory
}

// Execute builds the world of sc under set and runs it to its end, with
// ch answering every choice. It is the one way a scenario is run outside
// the engine and the explorer: the commands, the lesson, the TUI, replay,
// headlines, the lab and merge's check all come through here (a test
// counts the call sites of sim.NewWorld). The faults the run took are
// recorded whatever ch is.
func Execute(sc *scenarios.Scenario, set scenarios.Settings, ch sim.Chooser, opt Options) (Run, error) {
	cfg, err := sc.Config(set)
	if err != nil {
		return Run{}, err
	}
	r, err := ExecuteConfig(cfg, ch, opt)
	r.Roles = sc.Roles()
	return r, err
}

// ExecuteConfig runs a configuration already built: a plan's, resolved
// against its topology, or the lab's, whose nodes are processes.
func ExecuteConfig(cfg *sim.Config, ch sim.Chooser, opt Options) (Run, error) {
	if opt.NoTrace && opt.Recorder != nil {
		return Run{}, fmt.Errorf("runs: a recorder was given to a run that keeps no trace")
	}
	rec := sim.NewRecording(ch)
	var trace *sim.Trace
	var events sim.Recorder = opt.Recorder
	if events == nil && !opt.NoTrace {
		trace = &sim.Trace{}
		events = trace
	}
	if err := opt.Memory.Reserve(cfg.Ops); err != nil {
		return Run{}, err
	}
	capped, orig := false, cfg
	if limit := opt.Memory.eventCap(); limit > 0 && trace != nil && limit < effectiveMaxEvents(cfg) {
		bounded := *cfg
		bounded.MaxEvents, capped = limit, true
		cfg = &bounded
	}
	w, err := sim.NewWorld(cfg, rec, events)
	if err != nil {
		return Run{}, err
	}
	noteStartup()
	if opt.Continue == nil {
		w.Run()
	} else {
		for opt.Continue() && w.Step() {
		}
	}
	out := w.Outcome()
	if trace != nil {
		if capped && out.End == sim.EventBudget {
			return Run{}, &MemoryError{What: fmt.Sprintf("its trace (%d events kept)", len(trace.Events))}
		}
		opt.Memory.chargeEvents(len(trace.Events))
	}
	r := Run{Config: orig, Outcome: out, Trace: trace, Faults: rec.Faults, World: w}
	if l, ok := sim.LivenessOf(orig, out); ok {
		r.Liveness = &l
	}
	return r, nil
}

// effectiveMaxEvents is cfg's event budget, its default resolved.
func effectiveMaxEvents(cfg *sim.Config) int {
	if cfg.MaxEvents > 0 {
		return cfg.MaxEvents
	}
	return sim.DefaultMaxEvents
}

// Report is the run as the report documents show it: its outcome, the
// fault plan it took in the words of its topology, and, when the trace
// was kept, each operation's effect values.
func (r *Run) Report() report.Run {
	out := report.Run{Outcome: r.Outcome, Replay: r.Replay, Shrunk: r.Shrunk, Sinks: report.SinkNames(r.Config.Topology, r.Config.Observe), Liveness: r.Liveness, Live: r.Live}
	cat := r.Roles
	if cat == nil {
		cat = scenarios.RoleCatalog()
	}
	for _, m := range r.Outcome.Metrics {
		if out.MetricUnits == nil {
			out.MetricUnits = map[string]string{}
		}
		out.MetricUnits[m.Name] = cat.MetricUnit(m.Name)
	}
	for _, f := range r.Faults {
		out.FaultPlan = append(out.FaultPlan, r.Config.Topology.FaultLine(f))
	}
	if r.Trace != nil {
		out.Effects = report.EffectValues(r.Config.Observe, r.Trace.Events)
	}
	return out
}

// Outcome runs sc under set as Execute does, sending its events to rec
// (nil for none), and returns the outcome alone: a run judged by its
// verdict and counts, such as a property test's or live's comparison.
func Outcome(sc *scenarios.Scenario, set scenarios.Settings, ch sim.Chooser, rec sim.Recorder) (*sim.Outcome, error) {
	r, err := Execute(sc, set, ch, Options{Recorder: rec, NoTrace: rec == nil})
	return r.Outcome, err
}
