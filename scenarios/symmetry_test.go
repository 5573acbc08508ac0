package scenarios_test

import (
	"fmt"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// symmetricSetting draws a configuration whose roles declare their
// operations interchangeable (sim.NewSymmetry accepts it): double-billing
// (http-client, payment-service, card-gateway) or at-least-once-duplicate
// (producer, broker, consumer), every semantics, 2 to 4 operations, and
// the variants and fault kinds that keep it symmetric.
func symmetricSetting(t *rapid.T) (*sim.Config, string) {
	if rapid.Bool().Draw(t, "queue") {
		return symmetricQueueSetting(t)
	}
	return symmetricPaymentSetting(t)
}

// symmetricPaymentSetting draws a symmetric double-billing configuration:
// the store, mark, provider and ttl variants, and crash only with an
// in-memory key store, which a restart finds empty, or where the
// service's restart does nothing: under at-most-once and at-least-once.
func symmetricPaymentSetting(t *rapid.T) (*sim.Config, string) {
	sem := rapid.SampledFrom([]sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent}).Draw(t, "semantics")
	params := map[string]string{
		"store":    rapid.SampledFrom([]string{"durable", "memory"}).Draw(t, "store"),
		"mark":     rapid.SampledFrom([]string{"before", "after"}).Draw(t, "mark"),
		"provider": rapid.SampledFrom([]string{"plain", "lookup", "idempotent"}).Draw(t, "provider"),
		"ttl":      rapid.SampledFrom([]string{"0", "500ms"}).Draw(t, "ttl"),
		"interval": rapid.SampledFrom([]string{"0", "30ms", "100ms"}).Draw(t, "interval"),
	}
	kinds := []string{"loss", "ack-loss", "loss,ack-loss", "loss,ack-loss,dup"}
	if params["store"] == "memory" || sem != sim.Idempotent {
		kinds = append(kinds, "ack-loss,crash", "loss,ack-loss,crash")
	}
	return drawnConfig(t, "double-billing", sem, params, kinds)
}

// symmetricQueueSetting draws a symmetric at-least-once-duplicate
// configuration: the consumer's store, mark and ttl variants, the
// broker's visibility timeout against the producer's, and every fault
// kind the scenario enumerates, crashes of the consumer included (its
// restart does nothing).
func symmetricQueueSetting(t *rapid.T) (*sim.Config, string) {
	sem := rapid.SampledFrom([]sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent}).Draw(t, "semantics")
	params := map[string]string{
		"store":      rapid.SampledFrom([]string{"durable", "memory"}).Draw(t, "store"),
		"mark":       rapid.SampledFrom([]string{"before", "after"}).Draw(t, "mark"),
		"ttl":        rapid.SampledFrom([]string{"0", "500ms"}).Draw(t, "ttl"),
		"visibility": rapid.SampledFrom([]string{"300ms", "1s"}).Draw(t, "visibility"),
		"interval":   rapid.SampledFrom([]string{"0", "30ms", "100ms"}).Draw(t, "interval"),
	}
	kinds := []string{"loss", "ack-loss", "loss,ack-loss", "loss,ack-loss,dup", "ack-loss,crash", "loss,ack-loss,crash"}
	return drawnConfig(t, "at-least-once-duplicate", sem, params, kinds)
}

// drawnConfig builds scenario name with the drawn semantics and params, a
// drawn fault-kind list of kinds and 2 to 4 operations.
func drawnConfig(t *rapid.T, name string, sem sim.Semantics, params map[string]string, kinds []string) (*sim.Config, string) {
	kind := rapid.SampledFrom(kinds).Draw(t, "faults")
	ops := rapid.IntRange(2, 4).Draw(t, "ops")
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	faults, _, err := scenarios.ExploreFaults(kind)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: ops, Faults: faults, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, fmt.Sprintf("%s %s ops=%d faults=%s %v", name, sem.Alias(), ops, kind, params)
}

// recorder answers every choice at random (a fault with probability 1/3,
// any jitter) and records the answers, so that a second world can be
// stepped with the same ones.
type recorder struct {
	t       *rapid.T
	answers []int
}

func (r *recorder) Choose(c sim.Choice) int {
	v := 0
	if c.N > 1 && rapid.IntRange(0, 2).Draw(r.t, "fault") == 0 {
		v = rapid.IntRange(1, int(c.N)-1).Draw(r.t, "answer")
	}
	r.answers = append(r.answers, v)
	return v
}

// TestRolesAreEquivariant checks the obligations of sim.OpRenamer and
// sim.IDRenamer, on which the soundness of the symmetry reduction rests,
// step by step along random schedules of the symmetric double-billing and
// queue configurations: for a random renaming σ of the operations
// together with a random permutation of the issued ids the state holds
// (the gateway's transaction ids, where every role declares them) and a
// random shift of each started operation's attempt numbers (where every
// role reads them relative to each other),
//
//   - the orbit's fingerprint does not depend on the naming:
//     Symmetry.Fingerprint(σ(w)) = Symmetry.Fingerprint(w);
//   - renaming commutes with stepping: σ(w) stepped with the answers w
//     was stepped with is σ(w′), state for state (World.Fingerprint), with
//     the same verdict and the same end — for every step after the nodes'
//     first boots (the first steps of every run, at time 0, where the
//     client's Start gives the operations their numbers and start times).
//
// A role that did something for op-1 that it does not do for op-2, that
// iterated over its operations in the order of their ids, or a renamer
// that missed a slot, fails the second; a signature that is not
// invariant fails the first.
func TestRolesAreEquivariant(t *testing.T) {
	// A renamer that misses one slot shows only on the schedules that put
	// two ids there and a permutation that swaps them (1 case in about
	// 260 for the gateway's charges), and a case costs about a
	// millisecond: try at least equivarianceChecks.
	setFlag(t, "rapid.checks", func(old string) string {
		if n, err := strconv.Atoi(old); err == nil && n >= equivarianceChecks {
			return old
		}
		return strconv.Itoa(equivarianceChecks)
	})
	rapid.Check(t, func(rt *rapid.T) {
		cfg, name := symmetricSetting(rt)
		sym, off := sim.NewSymmetry(cfg, sim.AllFaultKinds)
		if sym == nil {
			rt.Fatalf("%s: symmetry off: %s", name, off)
		}
		rec := &recorder{t: rt}
		w, err := sim.NewWorld(cfg, rec, nil)
		if err != nil {
			rt.Fatal(err)
		}
		var buf []byte
		steps := rapid.IntRange(1, 80).Draw(rt, "steps")
		for step := 0; step < steps && w.Ended() == sim.Running; step++ {
			to := make([]sim.OpID, cfg.Ops+1)
			for i, p := range rapid.Permutation(opsOf(cfg.Ops)).Draw(rt, "σ") {
				to[i+1] = p
			}
			τ := drawIDPermutation(rt, sym.IDs(w))
			renamed := sym.RenamedIDs(w, to, τ)
			by := make([]int32, cfg.Ops+1) // by the renamed operations
			for op := range by[1:] {
				by[op+1] = int32(rapid.IntRange(0, 3).Draw(rt, "shift"))
				if renamed.Checker().Tally(sim.OpID(op+1)).Attempts == 0 {
					by[op+1] = 0 // not started: its first attempt is made up, and stays 1
				}
			}
			renamed = sym.ShiftedAttempts(renamed, by)
			orbit, _ := sym.Fingerprint(w, &buf)
			if o, _ := sym.Fingerprint(renamed, &buf); o != orbit {
				rt.Fatalf("%s, step %d: the orbit's fingerprint depends on the naming (σ = %v, ids %v, attempts shifted by %v)", name, step, to[1:], sym.IDs(w), by[1:])
			}
			rec.answers = rec.answers[:0]
			w.Step()
			if step < len(cfg.Nodes) {
				continue // the nodes' first boots: the client's numbers the operations (sim.OpRenamer)
			}
			renamed.SetChooser(&sim.Sequence{Answers: append([]int(nil), rec.answers...)})
			renamed.Step()
			want := sym.ShiftedAttempts(sym.RenamedIDs(w, to, τ), by)
			if renamed.Fingerprint() != want.Fingerprint() {
				rt.Fatalf("%s, step %d: a renamed world stepped to another state than the step renamed (σ = %v, ids %v, attempts shifted by %v, answers %v)", name, step, to[1:], sym.IDs(w), by[1:], rec.answers)
			}
			if renamed.Ended() != w.Ended() || renamed.JudgeStatus(sim.ExactlyOne) != w.JudgeStatus(sim.ExactlyOne) {
				rt.Fatalf("%s, step %d: a renamed world ends or is judged otherwise", name, step)
			}
		}
	})
}

// equivarianceChecks is the least number of cases TestRolesAreEquivariant
// tries.
const equivarianceChecks = 2000

// drawIDPermutation draws a permutation of ids (a state's issued ids),
// the identity on every other value: a fresh id stays fresh.
func drawIDPermutation(t *rapid.T, ids []int64) func(int64) int64 {
	if len(ids) < 2 {
		return func(v int64) int64 { return v }
	}
	to := make(map[int64]int64, len(ids))
	for i, v := range rapid.Permutation(ids).Draw(t, "τ") {
		to[ids[i]] = v
	}
	return func(v int64) int64 {
		if u, ok := to[v]; ok {
			return u
		}
		return v
	}
}

// opsOf is the operations 1..n.
func opsOf(n int) []sim.OpID {
	ops := make([]sim.OpID, n)
	for i := range ops {
		ops[i] = sim.OpID(i + 1)
	}
	return ops
}

// TestSymmetryReductionKeepsVerdicts compares searches with and without
// the symmetry reduction on random small symmetric configurations: the
// same verdict, the same counterexample (the first violating schedule in
// the search's order: a state skipped for a renaming explored earlier
// has its violations' renamed twins earlier in that order), never more
// states, and an audit of every merge the reduction makes (both worlds
// run to their end must do the same, operation for operation up to the
// renaming) that finds none unsound.
func TestSymmetryReductionKeepsVerdicts(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg, name := symmetricSetting(rt)
		opt := search.Options{MaxFaults: rapid.IntRange(0, 3).Draw(rt, "max-faults"), Promise: sim.ExactlyOne, MaxStates: 200_000}
		plain := opt
		plain.Reduce = search.ReduceNone
		want, err := search.Explore(cfg, plain)
		if err != nil {
			rt.Fatal(err)
		}
		opt.Audit = true
		got, err := search.Explore(cfg, opt)
		if err != nil {
			rt.Fatal(err)
		}
		if !got.Symmetry {
			rt.Fatalf("%s: symmetry off: %v", name, got.SymmetryOff)
		}
		if got.AuditFailure != "" {
			rt.Fatalf("%s: unsound merge: %s", name, got.AuditFailure)
		}
		if got.Holds != want.Holds || got.Complete != want.Complete || fmt.Sprint(got.Choices) != fmt.Sprint(want.Choices) {
			rt.Fatalf("%s, %d faults: with symmetry holds=%v complete=%v %v; without holds=%v complete=%v %v", name, opt.MaxFaults,
				got.Holds, got.Complete, got.Choices, want.Holds, want.Complete, want.Choices)
		}
		if want.Complete && got.States > want.States {
			rt.Fatalf("%s: the reduction stored more states: %d > %d", name, got.States, want.States)
		}
	})
}

// TestSymmetryOffSaysWhy: a configuration that breaks the symmetry is
// searched without it, and the result says why.
func TestSymmetryOffSaysWhy(t *testing.T) {
	cases := []struct {
		scenario string
		ops      int
		faults   string
		params   map[string]string
		want     sim.SymmetryOff
	}{
		{"double-billing", 1, "loss", nil, sim.SymmetryOff{Reason: sim.SymmetryOneOp}},
		{"double-billing", 2, "loss", map[string]string{"key": "per-attempt"}, sim.SymmetryOff{Reason: sim.SymmetryKeys, Node: "client"}},
		{"double-billing", 2, "loss,crash", nil, sim.SymmetryOff{Reason: sim.SymmetryRestart, Node: "service"}},
		{"idempotent-consumer-dedup", 2, "loss", nil, sim.SymmetryOff{Reason: sim.SymmetryUndeclared, Node: "consumer"}},
	}
	for _, c := range cases {
		cfg := exploreConfig(t, c.scenario, sim.Idempotent, c.ops, c.faults, c.params)
		res, err := search.Explore(cfg, search.Options{MaxFaults: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Symmetry || res.SymmetryOff == nil || *res.SymmetryOff != c.want {
			t.Errorf("%s %v %s: symmetry=%v off=%v, want off=%v", c.scenario, c.params, c.faults, res.Symmetry, res.SymmetryOff, c.want)
		}
		none, err := search.Explore(cfg, search.Options{MaxFaults: 1, Reduce: search.ReduceNone})
		if err != nil {
			t.Fatal(err)
		}
		if none.Symmetry || none.SymmetryOff != nil {
			t.Errorf("%s: --reduce none still reports symmetry=%v off=%v", c.scenario, none.Symmetry, none.SymmetryOff)
		}
	}
}
