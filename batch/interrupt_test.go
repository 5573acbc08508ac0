package batch_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/oncesim/once/batch"
)

// A stopped batch makes no run after the stop, keeps every run it made in
// its tallies (a row not reached has none), says how far it got, and ends
// the progress line with a newline (a completed one is erased instead).
func TestSessionStoppedKeepsTheRunsMade(t *testing.T) {
	cfgs, _ := rowConfigs(t)
	const seeds = 64
	var calls []int
	bar := func(done, total int) { calls = append(calls, done) }
	var w bytes.Buffer
	// Closed before the start: no chunk is taken at all.
	stop := make(chan struct{})
	close(stop)
	s := batch.Stopping(&w, "matrix", bar, stop)
	tallies, err := s.Run(cfgs, seeds, 1, batch.Options{})
	s.End()
	var in *batch.Interrupted
	if !errors.As(err, &in) || in.Done != 0 || in.Total != len(cfgs)*seeds || in.Command != "matrix" {
		t.Fatalf("stopped before it began: %v", err)
	}
	for i := range tallies {
		if tallies[i].Runs != 0 {
			t.Fatalf("row %d ran %d after the stop", i, tallies[i].Runs)
		}
	}
	if w.String() != "\n" || len(calls) == 0 || calls[len(calls)-1] != 0 {
		t.Errorf("the progress line was not ended with a newline: %q", w.String())
	}
	if !strings.HasPrefix(err.Error(), "INCOMPLETE: matrix interrupted after 0 of ") || in.MessageID() != "batch_interrupted" {
		t.Errorf("said %q (%s)", err, in.MessageID())
	}

	// Stopped midway: what ran is whole chunks of the first rows.
	mid := make(chan struct{})
	n := 0
	s = batch.Stopping(&w, "sweep", func(done, total int) {
		if n++; n == 2 {
			close(mid)
		}
	}, mid)
	tallies, err = s.Run(cfgs, 1_000, 2, batch.Options{})
	s.End()
	if !errors.As(err, &in) || in.Done >= in.Total {
		t.Fatalf("stopped midway: %v", err)
	}
	sum := 0
	for i := range tallies {
		sum += tallies[i].Runs
	}
	if sum != in.Done {
		t.Errorf("tallies hold %d runs, the error says %d", sum, in.Done)
	}
	if tallies[len(tallies)-1].Runs != 0 {
		t.Errorf("the last row ran although the batch stopped early")
	}

	w.Reset()
	s = batch.Stopping(&w, "matrix", func(int, int) {}, nil)
	if _, err := s.Run(cfgs[:2], 3, 2, batch.Options{}); err != nil {
		t.Fatal(err)
	}
	s.End()
	if w.Len() != 0 {
		t.Errorf("a completed batch wrote %q after its progress", w.String())
	}
}
