package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// ExploreSchema identifies the JSON document of `once explore`.
const ExploreSchema = "once.explore/v1"

// ExploreDoc is the JSON contract of `once explore --format json`.
// elapsed_ms and states_per_second are wall-clock measurements, the only
// fields that differ between two identical runs; --timing=false omits them.
type ExploreDoc struct {
	Schema    string   `json:"schema"`
	Scenario  string   `json:"scenario"`
	Semantics string   `json:"semantics"`
	Ops       int      `json:"ops"`
	Params    []string `json:"params"`
	Property  string   `json:"property"`
	// Checks says in words what property was checked, and how it stands
	// to the semantics' own promise.
	Checks string `json:"checks"`
	// ChecksText is Checks in the reader's language (empty: Checks).
	ChecksText string `json:"-"`
	// ParamsSet are the parameters given with --set: the text report
	// shows only these (Params lists every value, defaults included).
	ParamsSet      []string `json:"-"`
	MaxFaults      int      `json:"max_faults"`
	MaxPreemptions int      `json:"max_preemptions,omitempty"`
	Faults         []string `json:"faults"`
	// Branched are the fault kinds (preempt included) whose choice points
	// a search that holds (complete or cut) actually branched at: a
	// subset of Faults; a kind left out was enumerated but never reached
	// within the bounds. [] when none did; null on a counterexample.
	Branched    []string `json:"branched"`
	Holds       bool     `json:"holds"`
	Complete    bool     `json:"complete"`
	Cut         string   `json:"cut,omitempty"`
	States      int      `json:"states"`
	Schedules   int      `json:"schedules"`
	Transitions int      `json:"transitions"`
	Revisits    int      `json:"revisits"`
	MaxDepth    int      `json:"max_depth"`
	MemoryBytes int64    `json:"memory_bytes"` // the most the search held, as counted for --max-memory
	// Reduction is the reduction the search applied beyond its state
	// cache: "symmetry" (one state stored per renaming of the
	// operations) or "none".
	Reduction string `json:"reduction"`
	// Renames lists, under the symmetry reduction, what the renaming
	// between two merged states maps: "operations", and "ids" (the ids a
	// node issued, such as transaction ids) and "attempts" (each
	// operation's attempt numbers, shifted) where every role declares
	// them (sim.Symmetry.Renames).
	Renames []string `json:"renames,omitempty"`
	// Collapsed counts, under the symmetry reduction, the revisits that
	// were a renaming of the state stored, not that state itself: the
	// successors skipped only because of the reduction
	// (search.Stats.Collapsed).
	Collapsed int `json:"collapsed"`
	// SymmetryOff says why the symmetry reduction, asked for, was not
	// applied (nil when it was, or when --reduce none).
	SymmetryOff     *sim.SymmetryOff `json:"symmetry_off,omitempty"`
	ElapsedMs       *float64         `json:"elapsed_ms,omitempty"`
	StatesPerSecond *float64         `json:"states_per_second,omitempty"`
	Counterexample  *Counterexample  `json:"counterexample"`
}

// Counterexample is a shrunk violating schedule.
type Counterexample struct {
	Faults []string `json:"faults"` // plan lines, one per fault
	Steps  []string `json:"steps"`  // the trace of the shrunk run, numbered
	// StepsText is Steps in the reader's language (empty: Steps).
	StepsText []string `json:"-"`
	Cause     string   `json:"cause"`
	// CauseText is Cause in the reader's language (empty: Cause).
	CauseText   string `json:"-"`
	Replay      string `json:"replay"`
	Digest      string `json:"trace_digest"`
	FoundFaults int    `json:"found_faults"` // faults on the path the search found, before shrinking
	// Rule is the invariant the counterexample breaks, "" when it is an
	// operation's effects (or results) that break the promise.
	Rule string `json:"-"`
	// Minimal says whether a schedule with fewer faults was looked for
	// over every requested kind, and how far (nil: not looked for).
	Minimal *Minimality `json:"minimal,omitempty"`
}

// Minimality is how far explore looked for a counterexample with fewer
// faults than the one it reports.
type Minimality struct {
	// Proved: every budget below the counterexample's fault count was
	// searched to its end, and no schedule there violates.
	Proved bool `json:"proved"`
	// CompleteBelow: every schedule with fewer than this many faults was
	// searched and keeps the property.
	CompleteBelow int `json:"complete_below"`
	// Cut is why the search of CompleteBelow faults ended early, if it
	// did.
	Cut string `json:"cut,omitempty"`
}

// DescribeFault says in lesson terms what one fault did.
func DescribeFault(topo *sim.Topology, f sim.Fault) string {
	switch f.Kind {
	case sim.ChoiceCrash:
		s := fmt.Sprintf("%s crashed at %s", topo.NodeName(f.Node), topo.PointName(f.Point))
		if f.Op != 0 {
			s += fmt.Sprintf(" (handling %s %s #%d)", topo.MessageName(f.Msg), f.Op, f.Attempt)
		}
		return s
	case sim.ChoicePause:
		s := fmt.Sprintf("%s paused at %s, keeping its state", topo.NodeName(f.Node), topo.PointName(f.Point))
		if f.Op != 0 {
			s += fmt.Sprintf(" (handling %s %s #%d)", topo.MessageName(f.Msg), f.Op, f.Attempt)
		}
		return s
	case sim.ChoiceLoss:
		return fmt.Sprintf("%s %s #%d lost (%s → %s)", topo.MessageName(f.Msg), f.Op, f.Attempt, topo.NodeName(f.Node), topo.NodeName(f.Peer))
	case sim.ChoiceDuplicate:
		return fmt.Sprintf("%s %s #%d duplicated by the network (%s → %s)", topo.MessageName(f.Msg), f.Op, f.Attempt, topo.NodeName(f.Node), topo.NodeName(f.Peer))
	case sim.ChoicePreempt:
		return fmt.Sprintf("%s descheduled while it waited for %s %s #%d (%s → %s): other handlers ran first", topo.NodeName(f.Peer), topo.MessageName(f.Msg), f.Op, f.Attempt, topo.NodeName(f.Node), topo.NodeName(f.Peer))
	case sim.ChoiceSlow:
		return fmt.Sprintf("%s %s #%d delayed past the timer waiting for it (%s → %s)", topo.MessageName(f.Msg), f.Op, f.Attempt, topo.NodeName(f.Node), topo.NodeName(f.Peer))
	case sim.ChoiceLate:
		return fmt.Sprintf("%s %s #%d held late, past the horizon (%s → %s)", topo.MessageName(f.Msg), f.Op, f.Attempt, topo.NodeName(f.Node), topo.NodeName(f.Peer))
	}
	return topo.Registry().ChoiceName(f.Kind)
}

// Cause is the one-line explanation of a violation: what broke, and the
// faults that broke it, in order.
func Cause(topo *sim.Topology, why string, faults []sim.Fault) string {
	if len(faults) == 0 {
		return why + " — with no fault at all"
	}
	parts := make([]string, len(faults))
	for i, f := range faults {
		parts[i] = DescribeFault(topo, f)
	}
	return why + " — " + strings.Join(parts, ", then ")
}

// Steps numbers the events of a trace that tell the story: messages, drops,
// store operations, effects, crashes, outcomes (timers that did nothing are
// left out).
func Steps(topo *sim.Topology, events []sim.Event) []string {
	return steps(topo, events, Describe, sim.Time.String)
}

// TranslatedSteps is Steps in the current language (DescribeHere), for the
// text report; the JSON keeps Steps.
func TranslatedSteps(topo *sim.Topology, events []sim.Event) []string {
	return steps(topo, events, DescribeHere, TimeWords)
}

func steps(topo *sim.Topology, events []sim.Event, describe func(*sim.Topology, *sim.Event) string, at func(sim.Time) string) []string {
	var out []string
	for i := range events {
		e := &events[i]
		if c := EventClass(topo, e.Kind); c == sim.ClassTimer || c == sim.ClassSend {
			continue // a send shows as its delivery or its drop
		}
		out = append(out, fmt.Sprintf("%3d. %8s  %s", len(out)+1, at(e.At), describe(topo, e)))
	}
	return out
}

// WriteExploreText writes the human report of `once explore`, in the
// current language.
func WriteExploreText(w io.Writer, d ExploreDoc) error {
	var b strings.Builder
	b.WriteString(lang.Nf("explore.header", d.MaxFaults, map[string]any{
		"Scenario": styleTitle.Render(d.Scenario), "Semantics": d.Semantics, "Ops": d.Ops,
		"Faults": strings.Join(d.Faults, ","),
	}))
	if d.MaxPreemptions > 0 {
		b.WriteString(lang.Tf("explore.preemptions", map[string]any{"Max": d.MaxPreemptions}))
	}
	b.WriteString("\n")
	checks := d.Checks
	if d.ChecksText != "" {
		checks = d.ChecksText
	}
	fmt.Fprintf(&b, "%s %s\n", lang.T("explore.checks"), checks)
	if len(d.ParamsSet) > 0 {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(strings.Join(d.ParamsSet, " ")))
	}
	b.WriteString(lang.Tf("explore.explored", map[string]any{
		"States": d.States, "Schedules": d.Schedules, "Transitions": d.Transitions, "Revisits": d.Revisits, "Depth": d.MaxDepth,
	}))
	if d.ElapsedMs != nil {
		b.WriteString(lang.Tf("explore.elapsed", map[string]any{
			"Ms": fmt.Sprintf("%.0f", *d.ElapsedMs), "Rate": fmt.Sprintf("%.0f", *d.StatesPerSecond),
		}))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%s\n", styleDim.Render(ReductionText(d)))
	switch {
	case d.Holds && d.Complete:
		data := map[string]any{"Preemptions": d.MaxPreemptions, "Property": propertyName(d)}
		if d.MaxPreemptions > 0 {
			fmt.Fprintf(&b, "%s %s\n", styleGood.Render(lang.T("explore.holds")), lang.Nf("explore.holds_preempt", d.MaxFaults, data))
		} else {
			fmt.Fprintf(&b, "%s %s\n", styleGood.Render(lang.T("explore.holds")), lang.Nf("explore.holds_every", d.MaxFaults, data))
		}
		fmt.Fprintf(&b, "%s\n", styleDim.Render(BranchedText(d.Branched)))
	case d.Holds:
		fmt.Fprintf(&b, "%s %s\n", styleWarn.Render(lang.T("explore.incomplete")), lang.Tf("explore.cut", map[string]any{"Cut": CutText(d.Cut)}))
		branched := BranchedText(d.Branched)
		if len(d.Branched) == 0 { // cut before any fault branched: not "only the fault-free schedule was searched"
			branched = lang.T("explore.branched_none_cut")
		}
		fmt.Fprintf(&b, "%s\n", styleDim.Render(branched))
	default:
		c := d.Counterexample
		fmt.Fprintf(&b, "%s %s\n", styleBad.Render(lang.T("explore.counterexample")), c.Text())
		if c.FoundFaults > len(c.Faults) {
			fmt.Fprintf(&b, "\n%s\n", lang.Tf("explore.faults_shrunk", map[string]any{"Faults": lang.T("column.faults"), "N": len(c.Faults), "Found": c.FoundFaults}))
		} else {
			fmt.Fprintf(&b, "\n%s\n", lang.Tf("explore.faults", map[string]any{"Faults": lang.T("column.faults"), "N": len(c.Faults)}))
		}
		for _, f := range c.Faults {
			fmt.Fprintf(&b, "  %s\n", f)
		}
		if m := c.Minimal; m != nil && len(c.Faults) > 0 {
			if m.Proved {
				fmt.Fprintf(&b, "%s\n", styleDim.Render(lang.T("explore.minimal")))
			} else {
				fmt.Fprintf(&b, "%s\n", styleDim.Render(lang.Tf("explore.minimal_upto", map[string]any{"N": m.CompleteBelow, "Cut": CutText(m.Cut)})))
			}
		}
		fmt.Fprintf(&b, "\n%s\n", lang.T("explore.steps"))
		steps := c.StepsText
		if len(steps) == 0 {
			steps = c.Steps
		}
		for _, s := range steps {
			fmt.Fprintf(&b, "  %s\n", s)
		}
		fmt.Fprintf(&b, "\n%s %s\n", styleDim.Render(lang.T("run.replay")), c.Replay)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// symmetryOffKeys are the messages of the reasons the symmetry reduction
// is off (sim.SymmetryOff.Reason).
var symmetryOffKeys = map[string]string{
	sim.SymmetryOneOp:      "explore.symmetry_off_one_op",
	sim.SymmetryInvariants: "explore.symmetry_off_invariants",
	sim.SymmetryUndeclared: "explore.symmetry_off_undeclared",
	sim.SymmetryKeys:       "explore.symmetry_off_keys",
	sim.SymmetryRestart:    "explore.symmetry_off_restart",
}

// ReductionText says which reduction a search applied, and what it
// merged, or why the symmetry reduction was off, in the current language.
func ReductionText(d ExploreDoc) string {
	switch {
	case d.Reduction == "symmetry":
		return lang.Tf("explore.reduction_symmetry", map[string]any{"Collapsed": d.Collapsed, "What": renamesText(d.Renames)})
	case d.SymmetryOff != nil:
		why := d.SymmetryOff.Reason
		if key, ok := symmetryOffKeys[why]; ok {
			why = lang.T(key)
		}
		if d.SymmetryOff.Node != "" {
			why = lang.Tf("explore.symmetry_off_node", map[string]any{"Node": d.SymmetryOff.Node, "Why": why})
		}
		return lang.Tf("explore.reduction_off", map[string]any{"Why": why})
	}
	return lang.T("explore.reduction_none")
}

// renamesKeys are the messages of what the symmetry reduction renames
// (sim.Symmetry.Renames).
var renamesKeys = map[string]string{
	"operations": "explore.renames_operations",
	"ids":        "explore.renames_ids",
	"attempts":   "explore.renames_attempts",
}

// renamesText words what the symmetry reduction renames, in the current
// language: the operations, then the ids and attempts it maps as well.
func renamesText(renames []string) string {
	if len(renames) == 0 {
		renames = []string{"operations"}
	}
	parts := make([]string, len(renames))
	for i, r := range renames {
		parts[i] = r
		if key, ok := renamesKeys[r]; ok {
			parts[i] = lang.T(key)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + lang.T("explore.renames_and") + parts[len(parts)-1]
}

// BranchedText says which fault kinds a search branched on — what its
// HOLDS is about — in the current language.
func BranchedText(kinds []string) string {
	if len(kinds) == 0 {
		return lang.T("explore.branched_none")
	}
	return lang.Tf("explore.branched", map[string]any{"Kinds": strings.Join(kinds, ", ")})
}

// Text is the counterexample's cause in the reader's language.
func (c *Counterexample) Text() string {
	if c.CauseText != "" {
		return c.CauseText
	}
	return c.Cause
}

// CheckedProperty says what explore checks under sem: exactly-once
// (stricter than at-most-once's or at-least-once's own promise), or the
// semantics' own promise with the scenario's invariants.
func CheckedProperty(property string, sem sim.Semantics) string {
	own := sem.Promise()
	if property == "exactly-once" {
		if own == sim.ExactlyOne {
			return fmt.Sprintf(wordChecksExactlyOnceOwn, sem)
		}
		return fmt.Sprintf(wordChecksExactlyOnce, sem, own)
	}
	return fmt.Sprintf(wordChecksPromise, sem, own)
}

// CheckedPropertyText is CheckedProperty in the current language.
func CheckedPropertyText(property string, sem sim.Semantics) string {
	own := sem.Promise()
	data := map[string]any{"Semantics": sem.String(), "Promise": own.String()}
	if property == "exactly-once" {
		if own == sim.ExactlyOne {
			return lang.Tf("explore.checks_exactly_once_own", data)
		}
		return lang.Tf("explore.checks_exactly_once", data)
	}
	return lang.Tf("explore.checks_promise", data)
}

func propertyName(d ExploreDoc) string {
	if d.Property == "exactly-once" {
		return "exactly-once"
	}
	return lang.Tf("promise.of", map[string]any{"Semantics": d.Semantics})
}
