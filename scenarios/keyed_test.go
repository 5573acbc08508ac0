package scenarios_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// sendID names one send as a fault plan names it: link, message kind, op,
// attempt and occurrence (the n-th send with the same fields in the run).
type sendID struct {
	from, to, msg string
	op            sim.OpID
	attempt       int32
	occurrence    int32
}

// fate is what the random chooser decided for one send.
type fate struct {
	lost, duplicated, slow, late bool
}

// fateRecorder folds a trace into the fate of every send, by identity.
type fateRecorder struct {
	topo  *sim.Topology
	fates map[sendID]fate
	byID  map[uint32]sendID // message id → the send that made it
	seen  map[sendID]int32  // occurrences so far, occurrence field zero
}

func newFateRecorder(topo *sim.Topology) *fateRecorder {
	return &fateRecorder{topo: topo, fates: map[sendID]fate{}, byID: map[uint32]sendID{}, seen: map[sendID]int32{}}
}

// Record implements sim.Recorder.
func (r *fateRecorder) Record(e *sim.Event) {
	m := &e.Msg
	switch e.Kind {
	case sim.EvSend:
		id := sendID{from: r.topo.NodeName(m.From), to: r.topo.NodeName(m.To), msg: r.topo.MessageName(m.Kind), op: m.Op, attempt: m.Attempt}
		r.seen[id]++
		id.occurrence = r.seen[id]
		r.fates[id] = fate{}
		r.byID[m.ID] = id
	case sim.EvDrop, sim.EvDuplicate, sim.EvSlow, sim.EvLate:
		id, ok := r.byID[m.ID]
		if !ok {
			return
		}
		f := r.fates[id]
		switch {
		case e.Kind == sim.EvDrop && e.Reason == sim.DropLoss:
			f.lost = true
		case e.Kind == sim.EvDuplicate:
			f.duplicated = true
		case e.Kind == sim.EvSlow:
			f.slow = true
		case e.Kind == sim.EvLate:
			f.late = true
		}
		r.fates[id] = f
	}
}

// TestKeyedFaultsAcrossSemantics is the promise of keyed randomness: for
// every catalog scenario with two or more semantics, over seeds 1–100, a
// message identity sent in the runs of two semantics gets the same drop,
// duplicate and slow decision in both (duplicate and slow are decided only
// for a message that was not dropped). One seed is one schedule, whatever
// the semantics does with it.
func TestKeyedFaultsAcrossSemantics(t *testing.T) {
	const seeds = 100
	for _, sc := range scenarios.All() {
		if len(sc.Semantics) < 2 {
			continue
		}
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			compared, differ := 0, 0
			var first []string
			for seed := uint64(1); seed <= seeds; seed++ {
				runs := make([]map[sendID]fate, len(sc.Semantics))
				for i, sem := range sc.Semantics {
					cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults})
					if err != nil {
						t.Fatal(err)
					}
					rec := newFateRecorder(cfg.Topology)
					w, err := sim.NewWorld(cfg, sim.NewRandom(seed), rec)
					if err != nil {
						t.Fatal(err)
					}
					w.Run()
					runs[i] = rec.fates
				}
				for i := range runs {
					for j := i + 1; j < len(runs); j++ {
						for id, a := range runs[i] {
							b, ok := runs[j][id]
							if !ok {
								continue
							}
							compared++
							same := a.lost == b.lost && (a.lost || a.duplicated == b.duplicated && a.slow == b.slow && a.late == b.late)
							if !same {
								differ++
								if len(first) < 5 {
									first = append(first, fmt.Sprintf("seed %d %s vs %s: %+v: %+v vs %+v",
										seed, sc.Semantics[i].Alias(), sc.Semantics[j].Alias(), id, a, b))
								}
							}
						}
					}
				}
			}
			if compared == 0 {
				t.Fatalf("no message identity was sent under two semantics")
			}
			if differ > 0 {
				t.Errorf("%d of %d shared message identities got different faults, e.g.\n%v", differ, compared, first)
			}
		})
	}
}
