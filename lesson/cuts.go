package lesson

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// A CutsSpec asks a step to show, computed by `once explore`, that the
// scenario's protocol is cut for every value of an integer parameter in
// From..To: the Two Generals' proof that with N messages the cut at the
// last one still splits them, for N = 1…6. The searches are exhaustive
// (within the scenario's explore bounds), not sampled: the same for every
// student.
type CutsSpec struct {
	Scenario string `yaml:"scenario"`
	Param    string `yaml:"param"`
	From     int    `yaml:"from"`
	To       int    `yaml:"to"`
}

// A Cut is one search of a CutsSpec: the parameter's value, the command
// that repeats it, whether the property holds, and the minimal
// counterexample's cause and fault count when it does not.
type Cut struct {
	N       int
	Command string
	Holds   bool
	Cause   string // the counterexample's cause, in the reader's language
	Faults  int    // the minimal counterexample's faults
	Steps   []string
}

// maxCuts bounds a CutsSpec's range: each value is one search.
const maxCuts = 12

func (c *CutsSpec) check() error {
	sc, err := scenarios.Lookup(c.Scenario)
	if err != nil {
		return fmt.Errorf("cuts: %w", err)
	}
	if c.From < 1 || c.To < c.From || c.To-c.From >= maxCuts {
		return fmt.Errorf("cuts: %s=%d..%d: want 1 <= from <= to, at most %d values", c.Param, c.From, c.To, maxCuts)
	}
	for _, n := range []int{c.From, c.To} {
		set := scenarios.Settings{Semantics: sc.Semantics[0], Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{c.Param: strconv.Itoa(n)}}
		if _, err := sc.Config(set); err != nil {
			return fmt.Errorf("cuts: %w", err)
		}
	}
	return nil
}

// Explore runs the searches, in order of the parameter's value. Each is
// `once explore SCENARIO --set PARAM=N` with the scenario's explore
// defaults.
func (c *CutsSpec) Explore() ([]Cut, error) {
	sc, err := scenarios.Lookup(c.Scenario)
	if err != nil {
		return nil, fmt.Errorf("lesson: cuts: %w", err)
	}
	var out []Cut
	for n := c.From; n <= c.To; n++ {
		cut, err := c.explore(sc, n)
		if err != nil {
			return nil, fmt.Errorf("lesson: cuts: %s --set %s=%d: %w", sc.Name, c.Param, n, err)
		}
		out = append(out, cut)
	}
	return out, nil
}

func (c *CutsSpec) explore(sc *scenarios.Scenario, n int) (Cut, error) {
	set := fmt.Sprintf("%s=%d", c.Param, n)
	cut := Cut{N: n, Command: fmt.Sprintf("once explore %s --set %s", sc.Name, set)}
	var b explore.Bounds
	b.Defaults(sc, nil)
	sem, err := sim.ParseSemantics(b.Semantics)
	if err != nil {
		return cut, err
	}
	promise, settings, _, err := b.Resolve(sc, sem, []string{set}, nil)
	if err != nil {
		return cut, err
	}
	cfg, err := sc.Config(settings)
	if err != nil {
		return cut, err
	}
	opt := search.Options{MaxFaults: b.MaxFaults, MaxPreemptions: b.MaxPreemptions, Promise: promise, Workers: 1}
	res, err := search.Explore(cfg, opt)
	if err != nil {
		return cut, err
	}
	if !res.Complete {
		return cut, fmt.Errorf("the search is incomplete (%s)", res.Cut)
	}
	cut.Holds = res.Holds
	if res.Holds {
		return cut, nil
	}
	cex, err := explore.MinimalCounterexample(cfg, promise, sc, settings, res, opt, explore.Replay{Faults: b.Faults, Property: b.Property}, io.Discard)
	if err != nil {
		return cut, err
	}
	cut.Cause, cut.Faults, cut.Steps = cex.Cause, len(cex.Faults), cex.Steps
	if cex.CauseText != "" {
		cut.Cause = cex.CauseText
	}
	if len(cex.StepsText) > 0 {
		cut.Steps = cex.StepsText
	}
	return cut, nil
}

// A cutFact is what one search of a CutsSpec proved, in terms free of
// any language: the parameter's value, whether the property held, and
// the minimal counterexample's faults as plan lines.
type cutFact struct {
	N     int
	Holds bool
	Plan  []string
}

// A cutStatement is one answer to "why can more messages not make the
// generals agree?", true or false of the searches.
type cutStatement struct {
	key  string
	true func([]cutFact) bool
}

// lostAt says whether a plan is one lost message, the attempt-th (#n).
func lostAt(plan []string, attempt int) bool {
	return len(plan) == 1 && strings.HasPrefix(plan[0], sim.ChoiceLoss.String()+" ") && strings.Contains(plan[0], " attempt="+strconv.Itoa(attempt)+" ")
}

// cutStatements are the statements a cut question offers, in order.
var cutStatements = []cutStatement{
	{"last", func(cs []cutFact) bool { // for every N, losing the last message alone splits them
		for _, c := range cs {
			if c.Holds || !lostAt(c.Plan, c.N) {
				return false
			}
		}
		return len(cs) > 0
	}},
	{"first", func(cs []cutFact) bool { // for every N, only the first message matters
		for _, c := range cs {
			if c.Holds || !lostAt(c.Plan, 1) {
				return false
			}
		}
		return len(cs) > 0
	}},
	{"enough", func(cs []cutFact) bool { // with the most messages tried, nothing splits them
		return len(cs) > 0 && cs[len(cs)-1].Holds
	}},
	{"two-lost", func(cs []cutFact) bool { // it takes two lost messages, for every N
		for _, c := range cs {
			if c.Holds || len(c.Plan) < 2 {
				return false
			}
		}
		return len(cs) > 0
	}},
	{"general-down", func(cs []cutFact) bool { // it takes a general crashing
		for _, c := range cs {
			for _, f := range c.Plan {
				if strings.HasPrefix(f, sim.ChoiceCrash.String()+" ") {
					return true
				}
			}
		}
		return false
	}},
}

// facts are the searches' results (each search a Probe: run once per
// process).
func (c *CutsSpec) facts() ([]cutFact, error) {
	sc, err := scenarios.Lookup(c.Scenario)
	if err != nil {
		return nil, fmt.Errorf("lesson: cuts: %w", err)
	}
	var b explore.Bounds
	b.Defaults(sc, nil)
	sem, err := sim.ParseSemantics(b.Semantics)
	if err != nil {
		return nil, err
	}
	var out []cutFact
	for n := c.From; n <= c.To; n++ {
		res, err := Probe{Scenario: sc.Name, Semantics: sem, Set: map[string]string{c.Param: strconv.Itoa(n)}}.Explore()
		if err != nil {
			return nil, err
		}
		out = append(out, cutFact{N: n, Holds: res.Holds, Plan: res.Faults})
	}
	return out, nil
}
