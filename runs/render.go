package runs

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Run is one finished run, as Execute returns it, with what the
// renderers need: the one result type of every surface that runs a
// scenario (the commands, the lesson, the TUI, the lab).
type Run struct {
	Config  *sim.Config
	Outcome *sim.Outcome
	Trace   *sim.Trace  // nil when the run kept none (Options)
	Faults  []sim.Fault // the faults the run took, in its order
	World   *sim.World  // the finished world, for judges that read its tables
	Replay  string
	// NoJitter: the run drew no jitter (Replay of a plan with no seed
	// line); its report says so rather than "seed 0".
	NoJitter bool
	Shrunk   *report.Counterexample // --check: the violation shrunk to minimal faults
	// Liveness is the verdict of the run's liveness phase (--faults-until);
	// nil when it had none.
	Liveness *sim.Liveness
	Live     *report.LiveDoc // once live: where the run ran; nil when simulated
	// Roles is the catalog of the scenario that ran (Execute sets it),
	// which names its metrics' units; nil: scenarios.RoleCatalog.
	Roles *roles.Catalog
}

// Formats are the output formats Render writes.
var Formats = []string{"text", "json", "trace", "mermaid", "svg", "md"}

// Render writes the runs of sc on seed (one per semantics) in format:
// the table of verdicts (text, json), the timelines (trace), the sequence
// diagrams (mermaid), the space-time diagrams (svg) or all of it as
// Markdown (md); headlines are the scenario's headline rows, shown beside.
func Render(w io.Writer, format string, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []Run, headlines []report.Run) error {
	sc = sc.ShownAs(format) // a file's texts with their control characters escaped, but in JSON
	vals, _ := scenarios.ResolveParams(sc.Params, set.Params)
	var rr []report.Run
	for i := range rs {
		rr = append(rr, rs[i].Report())
	}
	doc := report.NewRunDoc(sc.Name, seed, set, vals.Sorted(), sc.Outcome, rr)
	doc.NoJitter = len(rs) > 0 && rs[0].NoJitter
	doc.AddHeadlines(sc.Outcome, headlines)
	switch format {
	case "json":
		return report.WriteJSON(w, doc)
	case "trace", "mermaid":
		for i, r := range rs {
			if len(rs) > 1 {
				if i > 0 {
					fmt.Fprintln(w)
				}
				if format == "trace" {
					fmt.Fprintf(w, "# %s\n", r.Outcome.Semantics)
				} else {
					fmt.Fprintf(w, "%%%% %s\n", r.Outcome.Semantics)
				}
			}
			var err error
			if format == "trace" {
				err = report.WriteTimeline(w, r.Config.Topology, r.Trace.Events)
			} else {
				err = report.WriteMermaidOutcome(w, r.Config.Topology, r.Trace.Events, report.FocusOps(r.Outcome), report.FramingLine(r.Outcome, sc.Outcome, report.SinkNames(r.Config.Topology, r.Config.Observe)))
			}
			if err != nil {
				return err
			}
		}
		return nil
	case "svg":
		return WriteSVG(w, sc, seed, rs)
	case "md":
		diagrams := make([]string, len(rs))
		for i, r := range rs {
			var m strings.Builder
			if err := report.WriteMermaidOutcome(&m, r.Config.Topology, r.Trace.Events, report.FocusOps(r.Outcome), report.FramingLine(r.Outcome, sc.Outcome, report.SinkNames(r.Config.Topology, r.Config.Observe))); err != nil {
				return err
			}
			diagrams[i] = m.String()
		}
		return report.WriteRunMarkdown(w, doc, Text(sc, "summary", sc.Summary), diagrams)
	}
	return report.WriteRunText(colorprofile.NewWriter(w, os.Environ()), doc, Text(sc, "summary", sc.Summary))
}

// WriteSVG draws the runs' space-time diagrams: one alone, or several side
// by side as columns on one shared time axis (one seed is one schedule:
// the same faults hit every semantics). Each title says what the user got
// and, apart, whether the semantics kept its own promise.
func WriteSVG(w io.Writer, sc *scenarios.Scenario, seed uint64, rs []Run) error {
	var panels []svg.Panel
	for _, r := range rs {
		o := r.Outcome
		outcome := report.TranslatedOutcomeOf(sc.Outcome, o)
		var title string
		if len(rs) == 1 {
			title = fmt.Sprintf("%s · %s · %s\n%s", sc.Name, lang.Tf("run.seed", map[string]any{"Seed": seed}), outcome, report.PromiseText(o))
		} else {
			title = fmt.Sprintf("%s: %s\n%s", o.Semantics, outcome, report.PromiseText(o))
		}
		if o.Why != "" && o.Reason.Kind != sim.ReasonInvariant {
			title += " — " + lang.Reason(o.Reason) // an invariant is named in PromiseText
		}
		events, note := report.FocusEvents(r.Config.Topology, r.Trace.Events, report.FocusOps(o))
		if note != "" {
			title += "\n" + note
		}
		panels = append(panels, svg.Panel{Topology: r.Config.Topology, Events: events, Title: title})
	}
	if len(panels) == 1 {
		return svg.WritePanels(w, panels)
	}
	heading := fmt.Sprintf("%s · %s · %s\n%s", sc.Name, lang.Tf("run.seed", map[string]any{"Seed": seed}), lang.T("svg.one_schedule"), Text(sc, "summary", sc.Summary))
	return svg.WriteColumns(w, heading, panels)
}

// Check is the verdict of --check over runs: false if a promise was
// violated or could not be shown.
func Check(rs []Run) bool { return Verdict(rs) == sim.Held }

// Verdict is the runs' verdict together: Violated when one is, else
// Unknown when one is (a budget cut it), else Held.
func Verdict(rs []Run) sim.Status {
	v := sim.Held
	for _, r := range rs {
		if r.Liveness != nil && !r.Liveness.Settled {
			return sim.Violated // a run that never settles after its faults stop
		}
		switch r.Outcome.Status {
		case sim.Violated:
			return sim.Violated
		case sim.Held:
		default:
			v = r.Outcome.Status
		}
	}
	return v
}

// ShrinkFailures shrinks the faults of every violated run to a minimal
// plan, with its cause, the way explore does for its counterexamples.
func ShrinkFailures(rs []Run, jitter func() sim.Chooser) error {
	for i := range rs {
		r := &rs[i]
		if r.Outcome.Status != sim.Violated {
			continue
		}
		cex, _, err := Shrink(r.Config, r.Outcome.Semantics.Promise(), r.Faults, jitter)
		if err != nil {
			return err
		}
		cex.Replay = r.Replay
		r.Shrunk = cex
	}
	return nil
}
