package explore

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/plans"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Replay is what the counterexample's replay line repeats of the search
// (or, with Save, the plan file it is saved to instead).
type Replay struct {
	Save           string // write the counterexample's plan here; "" prints the explore line
	Faults         string // --faults, as narrowed to the kinds that branch
	Property       string
	MaxPreemptions int
	MaxDepth       int
	MaxStates      int
	MaxMemory      int64 // --max-memory as given; 0 when it was left out
}

// MinimalCounterexample turns the search's first violating path into a
// fault plan, shrinks it, and then looks for a counterexample with fewer
// faults over every requested kind (search.ExploreFewer: the searches of the
// budgets below the shrunk plan's, smallest first). It renders the one
// with the fewest faults and says whether that is proved the fewest
// (every smaller budget searched to its end) or how far the look went.
func MinimalCounterexample(cfg *sim.Config, promise sim.Promise, sc *scenarios.Scenario, set scenarios.Settings, res *search.Result, opt search.Options, r Replay, stderr io.Writer) (*report.Counterexample, error) {
	found, plan, err := ShrunkPlan(cfg, promise, res.Choices)
	if err != nil {
		return nil, err
	}
	maxFaults := opt.MaxFaults
	min := report.Minimality{Proved: true}
	if n := faultsIn(plan); n > 0 {
		fewer, err := search.ExploreFewer(cfg, opt, n)
		if err != nil {
			return nil, err
		}
		min.CompleteBelow, min.Cut = fewer.Complete, fewer.Cut
		min.Proved = fewer.Complete == n
		if fewer.Found != nil {
			if found, plan, err = ShrunkPlan(cfg, promise, fewer.Found.Choices); err != nil {
				return nil, err
			}
			maxFaults = fewer.Budget
			min.Proved = fewer.Complete == fewer.Budget
		}
	}
	cex, err := counterexample(cfg, promise, sc, set, found, plan, maxFaults, r, stderr)
	if err != nil {
		return nil, err
	}
	cex.Minimal = &min
	return cex, nil
}

// ShrunkPlan replays the choices of a violating path, records its faults
// (found), and shrinks them to a 1-minimal plan that still violates.
func ShrunkPlan(cfg *sim.Config, promise sim.Promise, choices []int) (found, plan []sim.Fault, err error) {
	rec := sim.NewRecording(&sim.Sequence{Answers: choices})
	w, err := sim.NewWorld(cfg, rec, nil)
	if err != nil {
		return nil, nil, err
	}
	w.Run()
	found = rec.Faults
	violates := func(plan []sim.Fault) bool {
		v, _, err := search.Violates(cfg, promise, plan, nil, nil)
		return err == nil && v
	}
	plan = found
	if violates(found) {
		plan = search.Shrink(found, violates)
	}
	return found, plan, nil
}

// faultsIn counts the faults of a plan that the fault budget pays for
// (preemptions have a budget of their own).
func faultsIn(plan []sim.Fault) int {
	n := 0
	for _, f := range plan {
		if f.Kind.IsFault() && !f.Kind.IsReorder() {
			n++
		}
	}
	return n
}

// counterexample renders the run of a shrunk plan (found: the faults on
// the path the search found) as the report's counterexample; maxFaults is
// the budget of the search that found it, for the replay line.
func counterexample(cfg *sim.Config, promise sim.Promise, sc *scenarios.Scenario, set scenarios.Settings, found, plan []sim.Fault, maxFaults int, r Replay, stderr io.Writer) (*report.Counterexample, error) {
	trace := &sim.Trace{}
	_, end, err := search.Violates(cfg, promise, plan, nil, trace)
	if err != nil {
		return nil, err
	}
	_, why := end.JudgeReason(promise)
	cex := &report.Counterexample{
		Cause: report.Cause(cfg.Topology, why.String(), plan), CauseText: report.TranslatedCause(cfg.Topology, why, plan), Steps: report.Steps(cfg.Topology, trace.Events),
		StepsText: report.TranslatedSteps(cfg.Topology, trace.Events),
		Digest:    report.DigestString(end.Digest()), FoundFaults: len(found),
		Faults: make([]string, 0, len(plan)), // [] in JSON when the violation needs no fault
	}
	if why.Kind == sim.ReasonInvariant {
		cex.Rule = why.Invariant
	}
	if cex.Steps == nil {
		cex.Steps = []string{}
	}
	for _, f := range plan {
		cex.Faults = append(cex.Faults, scenarios.FaultLine(cfg.Topology, f))
	}
	if r.Save != "" {
		p := &scenarios.Plan{Scenario: sc.Name, Semantics: set.Semantics, Ops: set.Ops, Faults: set.Faults, Params: set.Params}
		if !runs.FromCatalog(sc) {
			ref, hash, err := plans.FileRef(sc.File, r.Save)
			if err != nil {
				return nil, fmt.Errorf("--save %s: %w", r.Save, err)
			}
			p.File, p.FileHash = ref, hash
		}
		if err := plans.Save([]string{r.Save}, []*scenarios.Plan{p}, []*sim.Topology{cfg.Topology}, [][]sim.Fault{plan}); err != nil {
			return nil, fmt.Errorf("--save %w", err)
		}
		fmt.Fprintf(stderr, "saved counterexample plan %s\n", r.Save)
		cex.Replay = "once replay " + r.Save
		return cex, nil
	}
	cex.Replay = r.line(sc, set, maxFaults)
	return cex, nil
}

// line is the command that repeats the search and saves what it finds.
func (r Replay) line(sc *scenarios.Scenario, set scenarios.Settings, maxFaults int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "once explore %s --semantics %s --ops %d --max-faults %d --faults %s --property %s", runs.Ref(sc), set.Semantics.Alias(), set.Ops, maxFaults, r.Faults, r.Property)
	for _, kv := range runs.SortedSets(set.Params) {
		fmt.Fprintf(&b, " --set %s", kv)
	}
	if r.MaxPreemptions > 0 {
		fmt.Fprintf(&b, " --max-preemptions %d", r.MaxPreemptions)
	}
	if r.MaxDepth > 0 {
		fmt.Fprintf(&b, " --max-depth %d", r.MaxDepth)
	}
	if r.MaxStates > 0 {
		fmt.Fprintf(&b, " --max-states %d", r.MaxStates)
	}
	if r.MaxMemory > 0 {
		// The memory budget can cut the search before it reaches this
		// counterexample: the search line must be the same search.
		fmt.Fprintf(&b, " --max-memory %s", search.FormatBytes(r.MaxMemory))
	}
	b.WriteString(" --save cex.plan && once replay cex.plan")
	return b.String()
}
