package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// TestCDCReemitAfterCrash: one connector crash after an acknowledged emit
// and before the offset flush re-emits every row since the last flush —
// even with a flush after every row, the row in the gap — and a consumer
// that dedups by the outbox event id bills each once.
func TestCDCReemitAfterCrash(t *testing.T) {
	for _, c := range []struct {
		sem    sim.Semantics
		params map[string]string
		holds  bool
	}{
		{sim.AtLeastOnce, nil, false},
		{sim.AtLeastOnce, map[string]string{"flush-interval": "0"}, false},
		{sim.Idempotent, nil, true},
		{sim.Idempotent, map[string]string{"slot": "dropped"}, true},
	} {
		_, res := exploreVerdict(t, "cdc-outbox-reemit", c.sem, "crash", 1, c.params)
		if res.Holds != c.holds {
			t.Errorf("%s %v, crash ≤1: holds=%v, want %v (%s)", c.sem.Alias(), c.params, res.Holds, c.holds, res.Why)
		}
	}
}

// TestCDCResumesFromTheFlushedOffset: in the one-crash counterexample the
// restarted connector asks for the outbox from the row after its last
// flushed offset — the first row, none flushed yet — and emits op-1 again.
func TestCDCResumesFromTheFlushedOffset(t *testing.T) {
	cfg, res := exploreVerdict(t, "cdc-outbox-reemit", sim.AtLeastOnce, "crash", 1, nil)
	if res.Holds {
		t.Fatal("no re-emit found")
	}
	events, out := replayChoices(t, cfg, res.Choices)
	var fromStart int
	for _, s := range sendsOf(t, cfg, events, "connector", "outbox-fetch") {
		if s.msg.Key == 1 {
			fromStart++
		}
	}
	if fromStart != 2 {
		t.Errorf("the connector fetched row 1 %d times, want 2 (at the start and after the restart)", fromStart)
	}
	var op1 int
	for _, s := range sendsOf(t, cfg, events, "connector", "publish") {
		if s.msg.Op == 1 {
			op1++
		}
	}
	if op1 != 2 || effectsPerOp(out)[1] != 2 {
		t.Errorf("op-1 emitted %d times and billed %d, want 2 and 2", op1, effectsPerOp(out)[1])
	}
}
