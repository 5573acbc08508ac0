package enginetest_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// TestRecordReplayDoubleBilling is the replay promise end to end: record
// the faults of a random run, replay them with Scripted and the seed's
// jitter, and get the same trace digest — for 50 seeds under every
// semantics of double-billing, with crashes on.
func TestRecordReplayDoubleBilling(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	faults := sc.Faults
	faults.Probability[sim.FaultCrash] = 0.2
	seeds := uint64(50)
	if testing.Short() {
		seeds = 20
	}
	for _, sem := range []sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent} {
		set := scenarios.Settings{Semantics: sem, Ops: 10, Faults: faults}
		withFaults, crashes, jitterMatters := 0, 0, 0
		for seed := uint64(0); seed < seeds; seed++ {
			rec := sim.NewRecording(sim.NewRandom(seed))
			orig, err := runs.Outcome(sc, set, rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			plan := append([]sim.Fault(nil), rec.Faults...)
			replay := sim.NewScripted(plan, sim.NewJitter(seed))
			again, err := runs.Outcome(sc, set, replay, nil)
			if err != nil {
				t.Fatal(err)
			}
			if again.Digest != orig.Digest {
				t.Fatalf("%s seed %d: replay digest %016x, recorded run %016x (plan of %d faults)",
					sem, seed, again.Digest, orig.Digest, len(plan))
			}
			if replay.Used() != len(plan) {
				t.Fatalf("%s seed %d: replay used %d of %d faults", sem, seed, replay.Used(), len(plan))
			}
			if len(plan) > 0 {
				withFaults++
			}
			if orig.Faults.Of(sim.ChoiceCrash) > 0 {
				crashes++
			}
			// Negative control: the same plan with another seed's jitter
			// is a different run, so the digest comparison has teeth.
			other, err := runs.Outcome(sc, set, sim.NewScripted(plan, sim.NewJitter(seed+1_000_000)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if other.Digest != orig.Digest {
				jitterMatters++
			}
		}
		if withFaults < int(seeds)/2 {
			t.Errorf("%s: only %d of %d runs had faults; the replay check is too weak", sem, withFaults, seeds)
		}
		if crashes == 0 {
			t.Errorf("%s: no run crashed with crash probability 0.2", sem)
		}
		if jitterMatters < int(seeds)/2 {
			t.Errorf("%s: another jitter stream changed only %d of %d digests", sem, jitterMatters, seeds)
		}
	}
}

// TestPlanIsIdentityBased checks that faults are named by what they hit:
// with a plan of two lost responses (op-1 and op-3, first attempts) the
// replay hits both, and with op-1's fault removed it still hits op-3's —
// a positional plan ("the n-th choice") would have shifted.
func TestPlanIsIdentityBased(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	// The probabilities only make the network ask; Scripted ignores them.
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 3,
		Faults: scenarios.Faults{Probability: [sim.MaxFaultKinds]float64{sim.FaultLoss: 0.5, sim.FaultAckLoss: 0.5}}}
	const client, service = sim.NodeID(0), sim.NodeID(1)
	lostResponse := func(op sim.OpID) sim.Fault {
		return sim.Fault{Kind: sim.ChoiceLoss, Node: service, Peer: client, Msg: payments.MsgPayResponse,
			Op: op, Attempt: 1, Occurrence: 1, Value: 1}
	}
	a, b := lostResponse(1), lostResponse(3)

	effects := func(o *sim.Outcome) []int32 {
		var e []int32
		for _, r := range o.Ops {
			e = append(e, r.Effects)
		}
		return e
	}

	none, err := runs.Outcome(sc, set, sim.NewScripted(nil, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(effects(none)); got != "[1 1 1]" {
		t.Fatalf("fault-free run: effects %s, want [1 1 1]", got)
	}

	both := sim.NewScripted([]sim.Fault{a, b}, nil)
	o, err := runs.Outcome(sc, set, both, nil)
	if err != nil {
		t.Fatal(err)
	}
	if both.Used() != 2 {
		t.Fatalf("plan {A,B}: used %d faults, want 2", both.Used())
	}
	if got := fmt.Sprint(effects(o)); got != "[2 1 2]" {
		t.Fatalf("plan {A,B}: effects %s, want [2 1 2] (both lost responses retried and charged again)", got)
	}

	onlyB := sim.NewScripted([]sim.Fault{b}, nil)
	o, err = runs.Outcome(sc, set, onlyB, nil)
	if err != nil {
		t.Fatal(err)
	}
	if onlyB.Used() != 1 {
		t.Fatalf("plan {B}: used %d faults, want 1 (B must still hit op-3's response)", onlyB.Used())
	}
	if got := fmt.Sprint(effects(o)); got != "[1 1 2]" {
		t.Fatalf("plan {B}: effects %s, want [1 1 2]", got)
	}
}
