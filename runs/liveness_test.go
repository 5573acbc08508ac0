package runs

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// faultEventsFrom lists the events of r that are faults the chooser took
// (a loss, a copy, a crash, a pause) at or after time from.
func faultEventsFrom(r Run, from sim.Time) []sim.Event {
	var out []sim.Event
	for _, e := range r.Trace.Events {
		fault := e.Kind.Spec().Fault != 0 || (e.Kind == sim.EvDrop && e.Reason == sim.DropLoss)
		if fault && e.At >= from {
			out = append(out, e)
		}
	}
	return out
}

// The promise of the liveness phase: once the faults stop, the chooser
// is asked for none — no loss, copy, crash or pause happens at or after
// FaultsUntil, whatever the seed, scenario or fault rates — and a run
// with the phase is as deterministic as one without.
func TestLivenessPhaseTakesNoFaultAfterFaultsUntil(t *testing.T) {
	names := []string{"double-billing", "at-least-once-duplicate", "outbox", "kafka-zombie-fencing", "in-memory-dedup-restart"}
	rapid.Check(t, func(rt *rapid.T) {
		sc := lookup(t, rapid.SampledFrom(names).Draw(rt, "scenario"))
		sem := rapid.SampledFrom(sc.Semantics).Draw(rt, "semantics")
		seed := rapid.Uint64Range(1, 1000).Draw(rt, "seed")
		until := sim.Time(rapid.Int64Range(1, 3000).Draw(rt, "faults-until-ms"))
		set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, FaultsUntil: until}
		for k := range sim.FaultKinds { // heavy faults, so that the phase has something to stop
			if set.Faults.Probability[k] > 0 {
				set.Faults.Probability[k] = min(1, set.Faults.Probability[k]*3)
			}
		}
		r, err := Execute(sc, set, sim.NewRandom(seed), Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if late := faultEventsFrom(r, until); len(late) > 0 {
			rt.Fatalf("%d fault events at or after %s, the first %+v", len(late), until, late[0])
		}
		if r.Liveness == nil || r.Liveness.FaultsUntil != until {
			rt.Fatalf("liveness verdict %+v, want one for faults until %s", r.Liveness, until)
		}
		again, err := Execute(sc, set, sim.NewRandom(seed), Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if again.Outcome.Digest != r.Outcome.Digest || again.Liveness.Settled != r.Liveness.Settled {
			rt.Fatal("the same seed and phase gave another run")
		}
	})
}

// The verdict bites: stuck-processing-lease without a lease leaves seed
// 1's op-3 PROCESSING forever, so the run does not settle after its
// faults stop (and Verdict says violated, --check's exit 1); with the
// lease it settles. A bound too short for a run that would finish is
// also a failure: cut at faults-until + settle.
func TestLivenessVerdictBites(t *testing.T) {
	sc := lookup(t, "stuck-processing-lease")
	set := scenarios.Settings{Semantics: sim.Idempotent, Ops: 3, Faults: sc.Faults, Params: map[string]string{}, FaultsUntil: 2000, Settle: 30_000}
	r, err := Execute(sc, set, sim.NewRandom(1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Liveness; l == nil || l.Settled || len(l.Stuck) != 1 || l.Stuck[0] != 3 || l.Outcomes[0] != sim.OpNeverCompletes {
		t.Fatalf("without a lease: %+v, want op-3 stuck, never completing", r.Liveness)
	}
	if Verdict([]Run{r}) != sim.Violated {
		t.Error("an unsettled run is not a violation for --check")
	}
	set.Params = map[string]string{"lease": "1s"}
	if r, err = Execute(sc, set, sim.NewRandom(1), Options{}); err != nil {
		t.Fatal(err)
	}
	if !r.Liveness.Settled || Verdict([]Run{r}) != sim.Held {
		t.Errorf("with a lease: %+v, verdict %s; want settled and held", r.Liveness, Verdict([]Run{r}))
	}
	sc = lookup(t, "double-billing")
	tight := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 5, Faults: sc.Faults, FaultsUntil: 100, Settle: 50}
	if r, err = Execute(sc, tight, sim.NewRandom(1), Options{}); err != nil {
		t.Fatal(err)
	}
	if r.Liveness.Settled || r.Outcome.End != sim.TimeBudget || r.Outcome.EndTime > 150 {
		t.Errorf("a 50ms bound after 100ms: %+v ended %s at %s, want cut by 150ms and unsettled", r.Liveness, r.Outcome.End, r.Outcome.EndTime)
	}
}
