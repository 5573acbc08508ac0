package report

import (
	"fmt"
	"io"
	"strings"

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
	// ParamsSet are the parameters given with --set: the text report
	// shows only these (Params lists every value, defaults included).
	ParamsSet       []string        `json:"-"`
	MaxFaults       int             `json:"max_faults"`
	MaxPreemptions  int             `json:"max_preemptions,omitempty"`
	Faults          []string        `json:"faults"`
	Holds           bool            `json:"holds"`
	Complete        bool            `json:"complete"`
	Cut             string          `json:"cut,omitempty"`
	States          int             `json:"states"`
	Schedules       int             `json:"schedules"`
	Transitions     int             `json:"transitions"`
	Revisits        int             `json:"revisits"`
	MaxDepth        int             `json:"max_depth"`
	MemoryBytes     int64           `json:"memory_bytes"` // the most the search held, as counted for --max-memory
	ElapsedMs       *float64        `json:"elapsed_ms,omitempty"`
	StatesPerSecond *float64        `json:"states_per_second,omitempty"`
	Counterexample  *Counterexample `json:"counterexample"`
}

// Counterexample is a shrunk violating schedule.
type Counterexample struct {
	Faults      []string `json:"faults"` // plan lines, one per fault
	Steps       []string `json:"steps"`  // the trace of the shrunk run, numbered
	Cause       string   `json:"cause"`
	Replay      string   `json:"replay"`
	Digest      string   `json:"trace_digest"`
	FoundFaults int      `json:"found_faults"` // faults on the path the search found, before shrinking
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
	return f.Kind.String()
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
	var out []string
	for i := range events {
		e := &events[i]
		if e.Kind == sim.EvTimerFire || e.Kind == sim.EvSend {
			continue // a send shows as its delivery or its drop
		}
		out = append(out, fmt.Sprintf("%3d. %8s  %s", len(out)+1, e.At, Describe(topo, e)))
	}
	return out
}

// WriteExploreText writes the human report of `once explore`.
func WriteExploreText(w io.Writer, d ExploreDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s under %s · %d ops · ≤ %d faults of %s", styleTitle.Render(d.Scenario), d.Semantics, d.Ops, d.MaxFaults, strings.Join(d.Faults, ","))
	if d.MaxPreemptions > 0 {
		fmt.Fprintf(&b, " · ≤ %d preemptions", d.MaxPreemptions)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%s %s\n", wordChecks, d.Checks)
	if len(d.ParamsSet) > 0 {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(strings.Join(d.ParamsSet, " ")))
	}
	fmt.Fprintf(&b, "explored %d distinct states, %d complete schedules, %d transitions (%d revisits), max depth %d",
		d.States, d.Schedules, d.Transitions, d.Revisits, d.MaxDepth)
	if d.ElapsedMs != nil {
		fmt.Fprintf(&b, " in %.0f ms (%.0f states/s)", *d.ElapsedMs, *d.StatesPerSecond)
	}
	b.WriteString("\n")
	switch {
	case d.Holds && d.Complete:
		if d.MaxPreemptions > 0 {
			fmt.Fprintf(&b, "%s every schedule with ≤ %d faults and ≤ %d preemptions keeps %s\n", styleGood.Render("HOLDS:"), d.MaxFaults, d.MaxPreemptions, propertyName(d))
		} else {
			fmt.Fprintf(&b, "%s every schedule with ≤ %d faults keeps %s\n", styleGood.Render("HOLDS:"), d.MaxFaults, propertyName(d))
		}
	case d.Holds:
		fmt.Fprintf(&b, "%s no violation found, but the search was cut: %s\n", styleWarn.Render("INCOMPLETE:"), d.Cut)
	default:
		c := d.Counterexample
		fmt.Fprintf(&b, "%s %s\n", styleBad.Render("COUNTEREXAMPLE:"), c.Cause)
		if c.FoundFaults > len(c.Faults) {
			fmt.Fprintf(&b, "\n%s (%d, shrunk from %d):\n", headFaults, len(c.Faults), c.FoundFaults)
		} else {
			fmt.Fprintf(&b, "\n%s (%d):\n", headFaults, len(c.Faults))
		}
		for _, f := range c.Faults {
			fmt.Fprintf(&b, "  %s\n", f)
		}
		b.WriteString("\nsteps:\n")
		for _, s := range c.Steps {
			fmt.Fprintf(&b, "  %s\n", s)
		}
		fmt.Fprintf(&b, "\n%s %s\n", styleDim.Render("replay:"), c.Replay)
	}
	_, err := io.WriteString(w, b.String())
	return err
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

func propertyName(d ExploreDoc) string {
	if d.Property == "exactly-once" {
		return "exactly-once"
	}
	return d.Semantics + " " + WordPromise
}
