package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// invariantBroken reports whether the run broke the named invariant.
func invariantBroken(o *sim.Outcome, name string) bool {
	for _, r := range o.Invariants {
		if r.Name == name && r.Violation != "" {
			return true
		}
	}
	return false
}

// kafka-streams-eos: the state store is restored from the changelog. Under
// at_least_once a replay after a crash counts a record on top of its
// restored count (2, not a second 1: without the restore the count could
// not go up); under exactly_once_v2 with a read_committed restore no count
// ever goes past 1 although records are replayed; restored
// read_uncommitted, a count goes to 2 in a run whose output records are
// each seen once — the aggregate is wrong where the output looks right.
func TestKafkaStreamsRestore(t *testing.T) {
	const seeds = 60
	twice := 0
	for _, o := range runSeeds(t, "kafka-streams-eos", sim.AtLeastOnce, nil, seeds, nil) {
		for _, op := range o.Ops {
			if op.Effects >= 2 {
				twice++
			}
		}
	}
	if twice == 0 {
		t.Errorf("at_least_once: no count went to 2 in %d seeds: the replay never counted on a restored store", seeds)
	}

	replayed := 0
	for i, o := range runSeeds(t, "kafka-streams-eos", sim.Transactional, nil, seeds, nil) {
		for _, op := range o.Ops {
			if op.Effects != 1 {
				t.Errorf("exactly_once_v2, seed %d: %s counted %d times, want once", i+1, op.Op, op.Effects)
			}
			if op.Attempts >= 2 {
				replayed++
			}
		}
		if o.Status != sim.Held {
			t.Errorf("exactly_once_v2, seed %d: %s", i+1, o.Why)
		}
	}
	if replayed == 0 {
		t.Errorf("exactly_once_v2: no record was processed twice in %d seeds: the claim is vacuous", seeds)
	}

	outputOnceCountTwice := 0
	for _, o := range runSeeds(t, "kafka-streams-eos", sim.Transactional, map[string]string{"restore": "read_uncommitted"}, seeds, nil) {
		if invariantBroken(o, "kafka-output-once") {
			continue
		}
		for _, op := range o.Ops {
			if op.Effects >= 2 {
				outputOnceCountTwice++
				break
			}
		}
	}
	if outputOnceCountTwice == 0 {
		t.Errorf("restore=read_uncommitted: no run with every output seen once and a key counted twice in %d seeds", seeds)
	}
}

// The call to the external API from process() is outside the
// transaction: every count holds at 1 and the API is called twice in some
// run; with no call (side-effect=none) nothing reaches the API at all.
func TestKafkaStreamsSideEffectOutsideTheTransaction(t *testing.T) {
	const seeds = 40
	broken := 0
	for i, o := range runSeeds(t, "kafka-streams-eos", sim.Transactional, map[string]string{"side-effect": "in-process"}, seeds, nil) {
		for _, op := range o.Ops {
			if op.Effects != 1 {
				t.Errorf("seed %d: %s counted %d times, want once", i+1, op.Op, op.Effects)
			}
		}
		if invariantBroken(o, "side-effect-once") {
			broken++
		}
	}
	if broken == 0 {
		t.Errorf("side-effect=in-process: the API was never called twice in %d seeds", seeds)
	}
	for i, o := range runSeeds(t, "kafka-streams-eos", sim.Transactional, nil, seeds, nil) {
		if invariantBroken(o, "side-effect-once") {
			t.Errorf("side-effect=none, seed %d: side-effect-once broken without any call", i+1)
		}
	}
}
