package runs

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// ParseSemantics resolves a --semantics value against what sc supports:
// an alias or long id, a comma list (each once), or all.
func ParseSemantics(spec string, sc *scenarios.Scenario) ([]sim.Semantics, error) {
	if strings.TrimSpace(spec) == "all" {
		return sc.Semantics, nil
	}
	var out []sim.Semantics
	for _, s := range strings.Split(spec, ",") {
		if strings.TrimSpace(s) == "all" { // "all,alo" was "unknown semantics "all""
			return nil, usererr.New("semantics_all_in_list", map[string]any{"List": spec},
				fmt.Sprintf("--semantics %s: all stands alone (it names every semantics the scenario supports); give all, or a list", spec))
		}
		sem, err := sim.ParseSemantics(s)
		if err != nil {
			return nil, fmt.Errorf("--semantics: %w", err)
		}
		if slices.Contains(out, sem) {
			return nil, fmt.Errorf("--semantics %s: %s is given twice", spec, sem)
		}
		if !sc.Supports(sem) {
			var names []string
			for _, s := range sc.Semantics {
				names = append(names, s.Alias())
			}
			return nil, usererr.New("semantics_unsupported", map[string]any{"Semantics": sem.Alias(), "Scenario": sc.Name, "Supported": strings.Join(names, ", ")},
				fmt.Sprintf("--semantics %s: scenario %s supports %s", sem.Alias(), sc.Name, strings.Join(names, ", ")))
		}
		out = append(out, sem)
	}
	return out, nil
}

// OneSemantics is ParseSemantics for a command that takes one semantics
// (sweep, explore): a list or all is refused in the command's name, and
// a semantics sc does not support in the words every command uses.
func OneSemantics(spec string, sc *scenarios.Scenario, command string) (sim.Semantics, error) {
	if strings.Contains(spec, ",") || strings.TrimSpace(spec) == "all" {
		return 0, usererr.New("one_semantics", map[string]any{"Spec": spec, "Command": command},
			fmt.Sprintf("--semantics %s: %s takes one semantics", spec, command))
	}
	sems, err := ParseSemantics(spec, sc)
	if err != nil {
		return 0, err
	}
	return sems[0], nil
}

// Overrides are the run settings a command line gives: each applies only
// when Changed says its flag was set (a value left out keeps the
// scenario's).
type Overrides struct {
	Ops       int
	MaxEvents int
	MaxTime   string
	// FaultsUntil and Settle are --faults-until and --settle, the
	// liveness phase (once run, matrix and sweep).
	FaultsUntil, Settle string
	Faults              [sim.MaxFaultKinds]float64 // per sim.FaultKinds entry, its probability
	Durations           [sim.MaxFaultKinds]int64   // per kind with a duration setting
	Sets                []string                   // name=value
	Changed             func(flag string) bool
}

func (o *Overrides) changed(name string) bool { return o.Changed != nil && o.Changed(name) }

// Budgets overrides set's budgets by those given; a budget given is a
// budget (0 would silently mean "the default").
func (o *Overrides) Budgets(set *scenarios.Settings) error {
	if o.changed("max-events") {
		if o.MaxEvents < 1 || o.MaxEvents > sim.MaxEventBudget {
			return fmt.Errorf("--max-events %d: want a count in [1, %d] (leave it out for the scenario's budget)", o.MaxEvents, sim.MaxEventBudget)
		}
		set.MaxEvents = o.MaxEvents
	}
	if o.changed("max-time") {
		d, err := scenarios.ParseDuration(o.MaxTime)
		if err != nil {
			return fmt.Errorf("--max-time: %w", err)
		}
		if d < 1 {
			return fmt.Errorf("--max-time %s: want a positive duration, at least 1ms (leave it out for the scenario's budget)", o.MaxTime)
		}
		set.MaxTime = d
	}
	return o.liveness(set)
}

// liveness sets set's liveness phase from --faults-until and --settle.
func (o *Overrides) liveness(set *scenarios.Settings) error {
	for _, f := range []struct {
		name, value string
		into        *sim.Time
	}{{"faults-until", o.FaultsUntil, &set.FaultsUntil}, {"settle", o.Settle, &set.Settle}} {
		if !o.changed(f.name) {
			continue
		}
		d, err := scenarios.ParseDuration(f.value)
		if err != nil {
			return fmt.Errorf("--%s: %w", f.name, err)
		}
		if d < 1 {
			return fmt.Errorf("--%s %s: want a positive duration, at least 1ms", f.name, f.value)
		}
		*f.into = d
	}
	if set.Settle > 0 && set.FaultsUntil == 0 {
		return fmt.Errorf("--settle %s: it bounds the run after its faults stop; give --faults-until too", o.Settle)
	}
	return nil
}

// Settings builds the run settings: the scenario's defaults, overridden
// by every value given.
func (o *Overrides) Settings(sc *scenarios.Scenario) (scenarios.Settings, error) {
	set := scenarios.Settings{Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}}
	if o.changed("ops") {
		if o.Ops < 1 {
			return set, usererr.New("positive_count", map[string]any{"Flag": "--ops", "N": o.Ops}, fmt.Sprintf("--ops %d: want a positive count", o.Ops))
		}
		set.Ops = o.Ops
	}
	if err := o.Budgets(&set); err != nil {
		return set, err
	}
	for k := range sim.FaultKinds {
		spec := &sim.FaultKinds[k]
		if o.changed(spec.Name) {
			if v := o.Faults[k]; math.IsNaN(v) || v < 0 || v > 1 {
				return set, usererr.New("bad_probability", map[string]any{"Flag": "--" + spec.Name, "Value": v},
					fmt.Sprintf("--%s %v: a probability must be within [0,1]", spec.Name, v))
			}
			set.Faults.Probability[k] = o.Faults[k]
		}
		if d := spec.Duration; d != nil && o.changed(d.Name) {
			if err := spec.CheckDuration(sim.Time(o.Durations[k])); err != nil {
				return set, err
			}
			set.Faults.Duration[k] = sim.Time(o.Durations[k])
		}
	}
	for _, s := range o.Sets {
		k, v, err := scenarios.ParseSet(s)
		if err != nil {
			return set, err
		}
		set.Params[k] = v
	}
	if _, err := scenarios.ResolveParams(sc.Params, set.Params); err != nil {
		return set, fmt.Errorf("--set: %w", err)
	}
	return set, set.Faults.Validate()
}
