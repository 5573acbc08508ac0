package shard

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// Merged is every shard of one batch, checked and combined: what the
// command prints instead of running.
type Merged struct {
	Header         // the first shard's: the command and its arguments
	File    string // the first shard's path, for errors
	Seeds   int    // matrix and sweep: the batch's seeds
	Labels  []string
	Tallies []batch.Tally // matrix and sweep: each row over every seed
	Explore *ExploreMerged
	files   []*File // in index order
}

// ExploreMerged is a search merged from its shards: violated iff a shard
// found a violation, the counterexample the shards' first in canonical
// order (the unsharded search's), complete iff every shard is; counts
// summed, depth and memory the largest shard's.
type ExploreMerged struct {
	Result *search.Result
	Shards int
	// From is the file the counterexample came from, named when it does
	// not replay.
	From string
	// Search is the bounds every shard says it searched within.
	Search Search
	files  []*File // in index order
}

// CountsNote says what the counts of a merged search are.
const CountsNote = "states, schedules, transitions and revisits are summed over the shards, whose visited sets are not shared, so they can exceed an unsharded search's; depth and memory are the largest shard's"

// Merge reads the shard files at paths (Files expands directories) and
// checks that they are the shards of one batch, each exactly once, every
// one of them consistent; it returns them merged.
func Merge(paths []string) (*Merged, error) {
	var files []*File
	for _, p := range paths {
		f, err := Read(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("merge: give the shard files")
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Header().Index < files[j].Header().Index })
	first := files[0]
	fh := first.Header()
	describe := func(f *File) string {
		h := f.Header()
		words := []string{h.Command}
		for _, sf := range h.ScenarioFiles {
			words = append(words, "-f", sf.Name)
		}
		s := fmt.Sprintf("`%s` (%d shards", strings.Join(append(words, h.Args...), " "), h.Count)
		if f.Doc != nil {
			s += fmt.Sprintf(", %d seeds", f.Doc.Seeds)
		}
		return s + ")"
	}
	for _, f := range files {
		h := f.Header()
		same := h.Command == fh.Command && strings.Join(h.Args, "\x00") == strings.Join(fh.Args, "\x00") && h.Count == fh.Count &&
			(f.Doc == nil) == (first.Doc == nil) && (f.Doc == nil || f.Doc.Seeds == first.Doc.Seeds) &&
			slices.Equal(h.ScenarioFiles, fh.ScenarioFiles)
		if !same {
			return nil, fmt.Errorf("%s: shard of %s, but %s is of %s", f.Path, describe(f), first.Path, describe(first))
		}
		if f.Doc != nil && len(f.Doc.Rows) != len(first.Doc.Rows) {
			return nil, fmt.Errorf("%s: rows: %d, but %s has %d", f.Path, len(f.Doc.Rows), first.Path, len(first.Doc.Rows))
		}
		if f.Explore != nil && f.Explore.Search != first.Explore.Search {
			return nil, fmt.Errorf("%s: search: bounds other than those %s searched within", f.Path, first.Path)
		}
	}
	for i := 1; i < len(files); i++ {
		if files[i].Header().Index == files[i-1].Header().Index {
			return nil, fmt.Errorf("%s and %s: both are shard %d/%d", files[i-1].Path, files[i].Path, files[i].Header().Index, fh.Count)
		}
	}
	if len(files) != fh.Count {
		var missing []string
		have := map[int]bool{}
		for _, f := range files {
			have[f.Header().Index] = true
		}
		for i := range fh.Count {
			if !have[i] && len(missing) < 10 {
				missing = append(missing, strconv.Itoa(i))
			}
		}
		return nil, fmt.Errorf("merge: %d of %d shards given; missing %s", len(files), fh.Count, strings.Join(missing, ", "))
	}
	out := &Merged{Header: *fh, File: first.Path, files: files}
	if first.Explore != nil {
		out.Explore = mergeExplore(files)
		return out, nil
	}
	out.Seeds = first.Doc.Seeds
	out.Tallies = make([]batch.Tally, len(first.Doc.Rows))
	for _, r := range first.Doc.Rows {
		out.Labels = append(out.Labels, r.Label)
	}
	for _, f := range files {
		for i := range f.Doc.Rows {
			r := &f.Doc.Rows[i]
			if r.Label != out.Labels[i] {
				return nil, fmt.Errorf("%s: rows[%d].label: %q, but in %s it is %q", f.Path, i, r.Label, first.Path, out.Labels[i])
			}
			if len(r.Metrics) != len(first.Doc.Rows[i].Metrics) {
				return nil, fmt.Errorf("%s: rows[%d].metric_sums: %d sums, but %s has %d", f.Path, i, len(r.Metrics), first.Path, len(first.Doc.Rows[i].Metrics))
			}
			t := r.Tally()
			out.Tallies[i].Merge(&t)
		}
	}
	return out, nil
}

func mergeExplore(files []*File) *ExploreMerged {
	res := &search.Result{Holds: true, Complete: true}
	m := &ExploreMerged{Result: res, Shards: len(files), Search: files[0].Explore.Search, files: files}
	var cuts []string
	for _, f := range files {
		x := f.Explore
		res.States += x.States
		res.Schedules += x.Schedules
		res.Transitions += x.Transitions
		res.Revisits += x.Revisits
		res.Collapsed += x.Collapsed
		res.Symmetry, res.SymmetryRenames, res.SymmetryOff = x.Symmetry, x.SymmetryRenames, x.SymmetryOff // one --reduce, one configuration: the same in every shard
		res.MaxDepth = max(res.MaxDepth, x.MaxDepth)
		res.Memory = max(res.Memory, x.MemoryBytes)
		res.Branched = search.UnionBranches(res.Branched, x.Branched)
		if !x.Complete {
			res.Complete = false
			cuts = append(cuts, fmt.Sprintf("shard %d/%d: %s", x.Index, x.Count, x.Cut))
		}
		if !x.Holds && (res.Holds || search.CompareChoices(x.Choices, res.Choices) < 0) {
			res.Holds, res.Choices, m.From = false, x.Choices, f.Path
		}
	}
	if len(cuts) > 0 {
		res.Cut = cuts[0]
		if len(cuts) > 1 {
			res.Cut += fmt.Sprintf(" (and %d more shards cut)", len(cuts)-1)
		}
	}
	return m
}

// CheckTallies checks that the command, run again from the shards'
// arguments, builds the rows the shards tallied (labels), over the seeds
// they tallied (seeds, from the arguments), and that every shard's count
// of operations is its runs times the operations of a run of the row
// (from the row's config, cfgs[i]): arguments that claim more seeds or
// more operations than were run are refused.
func (m *Merged) CheckTallies(labels []string, cfgs []*sim.Config, seeds int) error {
	if len(m.Labels) != len(labels) {
		return &Error{m.File, "rows", fmt.Sprintf("the shards have %d rows, their arguments build %d: were they made by another version of once?", len(m.Labels), len(labels))}
	}
	for i, l := range m.Labels {
		if l != labels[i] {
			return &Error{m.File, fmt.Sprintf("rows[%d].label", i), fmt.Sprintf("%q, but the arguments build %q: were the shards made by another version of once?", l, labels[i])}
		}
	}
	if seeds != m.Seeds {
		return &Error{m.File, "args", fmt.Sprintf("--seeds %d, but the shards tallied %d seeds", seeds, m.Seeds)}
	}
	for _, f := range m.files {
		for i := range f.Doc.Rows {
			r := &f.Doc.Rows[i]
			if want := int64(r.Runs) * int64(cfgs[i].Ops); int64(r.Ops) != want {
				return &Error{f.Path, fmt.Sprintf("rows[%d].ops", i), fmt.Sprintf("%d, but %d runs of the %d operations the arguments give make %d", r.Ops, r.Runs, cfgs[i].Ops, want)}
			}
		}
	}
	return nil
}

// CheckSearch checks that the bounds the shards' arguments give (want)
// are those the shards say they searched within, and that every shard's
// counts fit them: no schedule deeper than the depth budget, no more
// distinct states than the state budget.
func (m *ExploreMerged) CheckSearch(want Search) error {
	file := m.files[0].Path
	if got := m.Search; got != want {
		for _, c := range []struct {
			field     string
			got, want any
		}{
			{"semantics", got.Semantics, want.Semantics}, {"ops", got.Ops, want.Ops}, {"max_faults", got.MaxFaults, want.MaxFaults},
			{"max_preemptions", got.MaxPreemptions, want.MaxPreemptions}, {"faults", got.Faults, want.Faults},
			{"property", got.Property, want.Property}, {"max_depth", got.MaxDepth, want.MaxDepth}, {"max_states", got.MaxStates, want.MaxStates},
		} {
			if c.got != c.want {
				return &Error{file, "search." + c.field, fmt.Sprintf("%q, but the shard's arguments give %q", fmt.Sprint(c.got), fmt.Sprint(c.want))}
			}
		}
	}
	for _, f := range m.files {
		x := f.Explore
		switch {
		case x.MaxDepth > want.MaxDepth:
			return &Error{f.Path, "max_depth", fmt.Sprintf("%d, deeper than the search's depth budget of %d", x.MaxDepth, want.MaxDepth)}
		case x.States > want.MaxStates:
			return &Error{f.Path, "states", fmt.Sprintf("%d, more than the search's state budget of %d", x.States, want.MaxStates)}
		}
	}
	return nil
}

// CheckCounterexample replays the merged counterexample's choices on cfg
// before it is reported: every answer must be one the run offered, every
// answer must be used, the faults must be within maxFaults, and the run
// must violate promise. A shard whose counterexample fails is named with
// the field.
func (m *ExploreMerged) CheckCounterexample(cfg *sim.Config, promise sim.Promise, maxFaults int) error {
	if m.Result.Holds {
		return nil
	}
	seq := &strictSequence{answers: m.Result.Choices, bad: -1}
	run, err := runs.ExecuteConfig(cfg, seq, runs.Options{NoTrace: true})
	if err != nil {
		return &Error{m.From, "choices", err.Error()}
	}
	switch {
	case seq.bad >= 0:
		return &Error{m.From, fmt.Sprintf("choices[%d]", seq.bad), fmt.Sprintf("%d is not one of the %d alternatives the run offers there", m.Result.Choices[seq.bad], seq.badN)}
	case seq.next < len(seq.answers):
		return &Error{m.From, "choices", fmt.Sprintf("%d answers, but the run asks only %d", len(seq.answers), seq.next)}
	case len(run.Faults) > maxFaults:
		return &Error{m.From, "choices", fmt.Sprintf("%d faults, more than the search's %d", len(run.Faults), maxFaults)}
	}
	if status, _ := run.World.JudgeAgainst(promise); status != sim.Violated {
		return &Error{m.From, "choices", fmt.Sprintf("the counterexample does not violate the property (its run %s)", status)}
	}
	return nil
}

// strictSequence answers choices from a list, as sim.Sequence does, and
// notes the first answer the run did not offer.
type strictSequence struct {
	answers   []int
	next      int
	bad, badN int
}

func (s *strictSequence) Choose(c sim.Choice) int {
	if s.next >= len(s.answers) {
		return 0
	}
	v := s.answers[s.next]
	if (v < 0 || v >= int(c.N)) && s.bad < 0 {
		s.bad, s.badN = s.next, int(c.N)
	}
	s.next++
	if v < 0 || v >= int(c.N) {
		return 0
	}
	return v
}
