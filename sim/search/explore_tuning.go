package search

import "fmt"

// The defaults of Tuning, and the number of parts a large search is
// split into.
const (
	// DefaultCheckpointEvery is the default spacing of the levels
	// whose worlds the search's stack keeps.
	DefaultCheckpointEvery = 64
	// DefaultWindow is the default number of top levels of the
	// stack whose worlds are all kept.
	DefaultWindow = 64
	// DefaultSplitAt is the default number of states a search
	// counts, undivided, before it is run as Parts parts.
	DefaultSplitAt = 1 << 14
	// Parts is how many parts a search (or a shard) that reaches
	// its split point is run as; a constant, so that no count depends on
	// the number of workers (see explore_parts.go).
	Parts = 16
)

// Tuning trades a search's memory against its time. Its zero value
// is the defaults, which suit every search; a field is worth setting only
// to measure the trade or, in tests, to make a small search replay or
// split as a large one does.
//
// CheckpointEvery and Window change only what keeping worlds costs (the
// statistics Replayed, Worlds and Memory), never the verdict, the
// counterexample or the other counts. SplitAt moves where a search is
// divided: the verdict and the counterexample stay those of the undivided
// search, but the states of the upper levels are counted once per part
// that passes through them, and a budget cut falls where the parts, in
// order, spend the budget.
type Tuning struct {
	// CheckpointEvery keeps the world of every level that is a multiple
	// of it; a level between two is rebuilt, when the search comes back
	// to it, by replaying fewer than CheckpointEvery steps from the kept
	// world below. 0 = DefaultCheckpointEvery.
	CheckpointEvery int
	// Window keeps the worlds of the top Window levels, where the search
	// backtracks most; at least CheckpointEvery. 0 = the larger of
	// DefaultWindow and CheckpointEvery.
	Window int
	// SplitAt is how many states the search counts, undivided, before it
	// is dropped and run again as Parts parts (which
	// Options.Workers share). 0 = DefaultSplitAt; negative =
	// never split.
	SplitAt int
}

// resolve returns the tuning with its defaults filled in, the split point
// 0 for never, or an error naming the field that is out of range.
func (t Tuning) resolve() (every, window, splitAt int, err error) {
	every, window, splitAt = t.CheckpointEvery, t.Window, t.SplitAt
	if every < 0 {
		return 0, 0, 0, fmt.Errorf("explore: checkpoint spacing %d is negative", every)
	}
	if window < 0 {
		return 0, 0, 0, fmt.Errorf("explore: window of %d levels is negative", window)
	}
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	if window == 0 {
		window = max(DefaultWindow, every)
	}
	if window < every {
		return 0, 0, 0, fmt.Errorf("explore: window of %d levels is below the checkpoint spacing %d", window, every)
	}
	switch {
	case splitAt == 0:
		splitAt = DefaultSplitAt
	case splitAt < 0:
		splitAt = 0 // the explorer never splits at 0
	}
	return every, window, splitAt, nil
}
