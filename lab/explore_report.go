package lab

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// ExploreReport is what `once lab --explore` searched: the report of its
// result names it, and the replay line repeats it.
type ExploreReport struct {
	Scenario       *scenarios.Scenario
	Semantics      sim.Semantics
	Settings       scenarios.Settings // with the search's fault kinds
	Seed           uint64
	MaxFaults      int
	MaxPreemptions int
	Faults         string   // --faults as given
	Kinds          []string // the fault kinds searched
	Command        Command
	Judge          Judge
}

// WriteExplore writes the text report of a search's result: HOLDS,
// INCOMPLETE, or the counterexample shrunk with fresh processes and the
// command that finds it again. Nothing is written when that fails.
func (l *Lab) WriteExplore(w io.Writer, r ExploreReport, res *ExploreResult) error {
	sc, sem, set, judge := r.Scenario, r.Semantics, r.Settings, r.Judge
	var b strings.Builder
	fmt.Fprintf(&b, "%s under %s · %d ops · ≤ %d faults of %s", sc.Name, sem, set.Ops, r.MaxFaults, strings.Join(r.Kinds, ","))
	if l.Preemptible() {
		fmt.Fprintf(&b, " · ≤ %d preemptions", r.MaxPreemptions)
	}
	fmt.Fprintf(&b, " · nodes played by your programs: %s", strings.Join(NodeNames(r.Command.Nodes), ", "))
	if l.Preemptible() {
		fmt.Fprintf(&b, " (%d replicas each)", l.ReplicaCount())
	}
	b.WriteString("\n")
	WriteJudges(&b, []sim.Semantics{sem}, map[sim.Semantics]Judge{sem: judge})
	fmt.Fprintf(&b, "explored %d complete schedules (each run from the start, prefix replayed), %d node steps, up to %d choices per schedule\n",
		res.Schedules, res.Steps, res.MaxDepth)
	switch {
	case res.Holds && res.Complete:
		within := fmt.Sprintf("≤ %d faults", r.MaxFaults)
		if l.Preemptible() {
			within += fmt.Sprintf(" and ≤ %d preemptions", r.MaxPreemptions)
		}
		fmt.Fprintf(&b, "HOLDS: every schedule with %s keeps %s; your nodes answered every replayed prefix identically\n", within, judge.Keeps())
		if err := writeBranched(&b, r, res); err != nil {
			return err
		}
	case res.Holds:
		fmt.Fprintf(&b, "INCOMPLETE: no violation found, but the search was cut: %s\n", res.Cut)
		if err := writeBranched(&b, r, res); err != nil {
			return err
		}
	default:
		found, err := l.Faults(sem, res.Choices)
		if err != nil {
			return err
		}
		cex, m, err := l.counterexample(sem, judge, found, nil)
		if err != nil {
			return err
		}
		res.Plan, res.Topology = m.Plan, m.Result.Config.Topology
		fmt.Fprintf(&b, "COUNTEREXAMPLE: %s\n", cex.Cause)
		fmt.Fprintf(&b, "\nfaults (shrunk from %d to %d):\n", cex.FoundFaults, len(cex.Faults))
		for _, f := range cex.Faults {
			fmt.Fprintf(&b, "  %s\n", f)
		}
		b.WriteString("\nsteps:\n")
		for _, s := range cex.Steps {
			fmt.Fprintf(&b, "  %s\n", s)
		}
		again := set
		again.Faults = sc.Faults // --faults, not the probabilities, drive a search
		fmt.Fprintf(&b, "\nreplay: %s --explore --max-faults %d --faults %s", r.Command.Line(sc, sem, r.Seed, again), r.MaxFaults, r.Faults)
		if l.Preemptible() {
			fmt.Fprintf(&b, " --max-preemptions %d", r.MaxPreemptions)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ProgressLine returns the progress callback of a search, redrawing one
// line on w, and the function that ends the line (cleared, the cursor
// back at column 0) if one was drawn. A nil w draws nothing.
func ProgressLine(w io.Writer) (draw func(ExploreStats), end func()) {
	start := time.Now()
	drawn := false
	draw = func(s ExploreStats) {
		if w == nil {
			return
		}
		fmt.Fprintf(w, "\r\033[Kexploring: %d schedules · now those with %d fault(s) · %d node steps · %.0f schedules/s",
			s.Schedules, s.Faults, s.Steps, float64(s.Schedules)/max(time.Since(start).Seconds(), 1e-9))
		drawn = true
	}
	end = func() {
		if drawn {
			fmt.Fprint(w, "\r\033[K")
			drawn = false
		}
	}
	return draw, end
}

// writeBranched writes the line that names the fault kinds the search
// branched on, as `once explore` does.
func writeBranched(b *strings.Builder, r ExploreReport, res *ExploreResult) error {
	kinds, err := r.Scenario.BranchedKinds(r.Settings, res.Branched)
	if err != nil {
		return fmt.Errorf("lab: explore: the kinds that branched: %w", err)
	}
	fmt.Fprintf(b, "%s\n", report.BranchedText(kinds))
	return nil
}
