package explore

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/shard"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Search is what a search was asked: its report's header.
type Search struct {
	Scenario       *scenarios.Scenario
	Settings       scenarios.Settings
	Property       string
	MaxFaults      int
	MaxPreemptions int
	Kinds          []string // the fault kinds enumerated
}

// Doc is the report of a search's result, without its counterexample;
// elapsed, when not nil, adds the time taken and the rate (the only
// non-deterministic fields).
func (s Search) Doc(res *search.Result, elapsed *time.Duration) report.ExploreDoc {
	sem := s.Settings.Semantics
	vals, _ := scenarios.ResolveParams(s.Scenario.Params, s.Settings.Params)
	doc := report.ExploreDoc{
		Schema: report.ExploreSchema, Scenario: s.Scenario.Name, Semantics: sem.String(), Ops: s.Settings.Ops, Params: vals.Sorted(),
		Property: s.Property, Checks: report.CheckedProperty(s.Property, sem), ChecksText: report.CheckedPropertyText(s.Property, sem), ParamsSet: runs.SortedSets(s.Settings.Params),
		MaxFaults: s.MaxFaults, MaxPreemptions: s.MaxPreemptions, Faults: s.Kinds, Holds: res.Holds, Complete: res.Complete, Cut: res.Cut,
		States: res.States, Schedules: res.Schedules, Transitions: res.Transitions, Revisits: res.Revisits, MaxDepth: res.MaxDepth,
		MemoryBytes: res.Memory, Reduction: "none", Collapsed: res.Collapsed, SymmetryOff: res.SymmetryOff,
	}
	if res.Symmetry {
		doc.Reduction, doc.Renames = "symmetry", res.SymmetryRenames
	}
	if doc.Params == nil {
		doc.Params = []string{}
	}
	if elapsed != nil {
		ms := float64(elapsed.Microseconds()) / 1000
		rate := float64(res.States) / max(elapsed.Seconds(), 1e-9)
		doc.ElapsedMs, doc.StatesPerSecond = &ms, &rate
	}
	return doc
}

// Branched names the fault kinds whose choice points the search branched
// at (res.Branched, read against the scenario's topology), for
// report.ExploreDoc.Branched. It is asked of a search that holds: one
// that found a violation stopped where it found it, which depends on how
// the tree was divided (--shard), and its counterexample names its
// faults.
func (s Search) Branched(res *search.Result) ([]string, error) {
	names, err := s.Scenario.BranchedKinds(s.Settings, res.Branched)
	if err != nil {
		return nil, fmt.Errorf("explore: the kinds that branched: %w", err)
	}
	return names, nil
}

// Write writes the report in format (text or json).
func Write(w io.Writer, format string, doc report.ExploreDoc) error {
	if format == "json" {
		return report.WriteJSON(w, doc)
	}
	return WriteText(w, doc)
}

// WriteText writes the human report, styled as the terminal allows.
func WriteText(w io.Writer, doc report.ExploreDoc) error {
	return report.WriteExploreText(colorprofile.NewWriter(w, os.Environ()), doc)
}

// WriteShard writes the shard file of res, headed by h, searched within
// bounds.
func WriteShard(w io.Writer, h shard.Header, bounds shard.Search, res *search.Result) error {
	doc := &shard.ExploreDoc{
		Header: h, Search: bounds,
		Holds: res.Holds, Complete: res.Complete, Cut: res.Cut, Choices: append([]int{}, res.Choices...),
		Branched: append([]search.Branch{}, res.Branched...),
		States:   res.States, Schedules: res.Schedules, Transitions: res.Transitions, Revisits: res.Revisits,
		MaxDepth: res.MaxDepth, MemoryBytes: res.Memory,
		Symmetry: res.Symmetry, SymmetryRenames: res.SymmetryRenames, SymmetryOff: res.SymmetryOff, Collapsed: res.Collapsed,
	}
	data, err := shard.Encode(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WriteMerged writes the report of a merged search: the report of the
// unsharded command (the same verdict and counterexample, in the same
// words) and what its counts mean.
func WriteMerged(w io.Writer, format string, doc report.ExploreDoc, shards int) error {
	if format == "json" {
		return report.WriteJSON(w, struct {
			report.ExploreDoc
			Shards int    `json:"shards"`
			Counts string `json:"counts"`
		}{doc, shards, shard.CountsNote})
	}
	if err := WriteText(w, doc); err != nil {
		return err
	}
	plural := "s"
	if shards == 1 {
		plural = ""
	}
	_, err := fmt.Fprintf(w, "merged from %d shard%s: %s\n", shards, plural, shard.CountsNote)
	return err
}

// Document is the report of a finished search: Doc, with the fault kinds
// that branched under a proof, or the minimal counterexample (shrunk,
// looked for with fewer faults) under a violation.
func (s Search) Document(cfg *sim.Config, promise sim.Promise, res *search.Result, opt search.Options, replay Replay, took *time.Duration, stderr io.Writer) (report.ExploreDoc, error) {
	doc := s.Doc(res, took)
	var err error
	if res.Holds {
		doc.Branched, err = s.Branched(res)
		return doc, err
	}
	doc.Counterexample, err = MinimalCounterexample(cfg, promise, s.Scenario, s.Settings, res, opt, replay, stderr)
	return doc, err
}
