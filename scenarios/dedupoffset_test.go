package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestDedupConsumerCommitsTheDeliveredOffset: idempotent-consumer-dedup's
// consumer commits the offset it was delivered. It used to keep one offset
// per operation, so a record and its producer's retry (two offsets of one
// operation, processed side by side) overwrote each other: at-least-once,
// seed 1, answered the delivery of key=4 with "commit op-4 key=6", left
// offset 4 uncommitted and charged op-4 ten times. With no crash and no
// pause, at-least-once answers every delivery the consumer takes (each
// copy) with a charge and then a commit of that very offset: as many
// commits of an offset as deliveries of it.
func TestDedupConsumerCommitsTheDeliveredOffset(t *testing.T) {
	sc, err := scenarios.Lookup("idempotent-consumer-dedup")
	if err != nil {
		t.Fatal(err)
	}
	faults := sc.Faults
	faults.Probability[sim.FaultCrash], faults.Probability[sim.FaultPause] = 0, 0
	twoOffsets := 0
	for seed := uint64(1); seed <= 40; seed++ {
		rec := offsetRecorder{delivered: map[int64]int{}, committed: map[int64]int{}, perOp: map[sim.OpID]map[int64]bool{}}
		if _, err := runs.Outcome(sc, scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: sc.Ops, Faults: faults}, sim.NewRandom(seed), &rec); err != nil {
			t.Fatal(err)
		}
		for off, n := range rec.delivered {
			if rec.committed[off] != n {
				t.Errorf("seed %d: offset %d delivered %d times, committed %d times", seed, off, n, rec.committed[off])
			}
		}
		for _, offs := range rec.perOp {
			if len(offs) > 1 {
				twoOffsets++
			}
		}
	}
	if twoOffsets == 0 {
		t.Fatal("no operation was delivered at two offsets: the test shows nothing")
	}
}

// offsetRecorder notes the offsets delivered to the consumer and the ones
// it commits.
type offsetRecorder struct {
	delivered map[int64]int
	committed map[int64]int
	perOp     map[sim.OpID]map[int64]bool
}

func (r *offsetRecorder) Record(e *sim.Event) {
	name := scenarios.RoleCatalog().Kinds().MessageNames()[e.Msg.Kind]
	switch {
	case e.Kind == sim.EvDeliver && name == "deliver":
		r.delivered[e.Msg.Key]++
		if r.perOp[e.Msg.Op] == nil {
			r.perOp[e.Msg.Op] = map[int64]bool{}
		}
		r.perOp[e.Msg.Op][e.Msg.Key] = true
	case e.Kind == sim.EvSend && name == "commit":
		r.committed[e.Msg.Key]++
	}
}
