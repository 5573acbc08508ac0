package scenarios_test

// Property tests that draw the whole schedule — workload, fault profile,
// parameters and every fault decision of the run — from rapid, so that a
// failure shrinks to the smallest schedule that still shows it, printed in
// the lesson's terms ("loss: service → client pay-response op-1 attempt 1").
//
// The semantics both scenarios run under promise, per operation ID:
//
//	at-most-once                 effects ≤ 1
//	at-least-once                effects ≥ 1 on a finished run
//	at-least-once+idempotent     effects = 1 and one distinct response
//
// and each classic bug (a volatile dedup store, "check, call, mark", a
// fresh key per attempt) must break the last promise: for those, rapid is
// used to *find* the counterexample, and the test fails if it cannot.

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/simrapid"
	"pgregory.net/rapid"
)

// probabilities are the fault probabilities a property draws from; rapid
// shrinks toward the first, 0 = that fault never happens.
var probabilities = []float64{0, .1, .3, .5}

// propertyScenarios are the scenarios every property runs over.
var propertyScenarios = []string{"double-billing", "at-least-once-duplicate"}

// drawFaults draws a fault profile: each probability from probs. The
// "slow network" fault (a retry overtakes a late answer) is drawn only when
// slow is set.
func drawFaults(t *rapid.T, probs []float64, slow bool) scenarios.Faults {
	var f scenarios.Faults
	f.Probability[sim.FaultLoss] = rapid.SampledFrom(probs).Draw(t, "loss")
	f.Probability[sim.FaultAckLoss] = rapid.SampledFrom(probs).Draw(t, "ack-loss")
	f.Probability[sim.FaultDup] = rapid.SampledFrom(probs).Draw(t, "dup")
	f.Probability[sim.FaultCrash] = rapid.SampledFrom(probs).Draw(t, "crash")
	if slow {
		f.Probability[sim.FaultSlow] = rapid.SampledFrom(probs).Draw(t, "slow")
	}
	return f
}

// drawParams draws the scenario parameters. With correct set, the bug
// switches keep their correct values (durable store, mark before, one key
// per operation, a provider that can be asked by key); the timing
// parameters are always drawn, including values short enough that retries
// and redeliveries overtake the answers they wait for.
func drawParams(t *rapid.T, name string, correct bool) map[string]string {
	p := map[string]string{}
	pick := func(param string, values ...string) {
		p[param] = rapid.SampledFrom(values).Draw(t, param)
	}
	switch name {
	case "double-billing":
		if correct {
			pick("provider", "lookup", "idempotent")
		} else {
			pick("store", "durable", "memory")
			pick("mark", "before", "after")
			pick("key", "per-operation", "per-attempt")
			pick("provider", "lookup", "idempotent", "plain")
		}
		pick("timeout", "1s", "100ms") // a round trip takes 120ms
		pick("interval", "100ms", "0")
	case "at-least-once-duplicate":
		if !correct {
			pick("store", "durable", "memory")
			pick("mark", "before", "after")
		}
		pick("timeout", "1s", "15ms")    // a publish ack takes 20ms
		pick("visibility", "1s", "15ms") // a commit takes 20ms
		pick("interval", "100ms", "0")
	}
	return p
}

// drawSettings draws a whole workload for sem over the property scenarios.
func drawSettings(t *rapid.T, sem sim.Semantics, correct bool) (string, scenarios.Settings) {
	name := rapid.SampledFrom(propertyScenarios).Draw(t, "scenario")
	return name, scenarios.Settings{
		Semantics: sem,
		Ops:       rapid.IntRange(1, 6).Draw(t, "ops"),
		Faults:    drawFaults(t, probabilities, true),
		Params:    drawParams(t, name, correct),
	}
}

// drawnRun is one run whose fault schedule rapid drew.
type drawnRun struct {
	name   string
	set    scenarios.Settings
	topo   *sim.Topology
	out    *sim.Outcome
	faults []sim.Fault
}

// runDrawn runs scenario name under set with every fault drawn from t.
func runDrawn(t *rapid.T, name string, set scenarios.Settings) *drawnRun {
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatalf("%v", err)
	}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ch := simrapid.New(t)
	ch.Topology = cfg.Topology
	out, err := runs.Outcome(sc, set, ch, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &drawnRun{name: name, set: set, topo: cfg.Topology, out: out, faults: ch.Faults()}
}

// String describes the run for a failure message: settings, per-operation
// tallies, the checker's status, and the fault schedule.
func (r *drawnRun) String() string {
	var b strings.Builder
	f := r.set.Faults
	fmt.Fprintf(&b, "%s under %s, ops=%d, loss=%v ack-loss=%v dup=%v slow=%v crash=%v",
		r.name, r.set.Semantics, r.set.Ops, f.Probability[sim.FaultLoss], f.Probability[sim.FaultAckLoss],
		f.Probability[sim.FaultDup], f.Probability[sim.FaultSlow], f.Probability[sim.FaultCrash])
	keys := make([]string, 0, len(r.set.Params))
	for k := range r.set.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, r.set.Params[k])
	}
	fmt.Fprintf(&b, "\nrun %s after %d events at %s; promise %s", r.out.End, r.out.Events, r.out.EndTime, r.out.Status)
	if r.out.Why != "" {
		fmt.Fprintf(&b, " (%s)", r.out.Why)
	}
	for _, op := range r.out.Ops {
		fmt.Fprintf(&b, "\n  %s: %d attempts, %d deliveries, %d effects, %d outcomes (%d distinct) → %s",
			op.Op, op.Attempts, op.Deliveries, op.Effects, op.Outcomes, op.DistinctOutcomes, op.Verdict)
	}
	fmt.Fprintf(&b, "\nfault schedule (%d):\n", len(r.faults))
	b.WriteString(indent(simrapid.FormatFaults(r.topo, r.faults)))
	return b.String()
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

// finishedCount counts, across the checks of one property, how many runs
// finished, so a property whose premise is "finished" cannot pass vacuously.
type finishedCount struct{ runs, finished int }

func (c *finishedCount) add(o *sim.Outcome) {
	c.runs++
	if o.Finished() {
		c.finished++
	}
}

func (c *finishedCount) check(t *testing.T) {
	t.Helper()
	t.Logf("%d of %d runs finished", c.finished, c.runs)
	if c.runs > 0 && c.finished == 0 {
		t.Fatalf("no run finished: the property was never exercised")
	}
}

// At-most-once never duplicates: the sender sends once, the consumer
// commits before it processes. Whatever the faults, every operation has
// at most one effect.
func TestPropertyAtMostOnceNeverDuplicates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name, set := drawSettings(t, sim.AtMostOnce, false)
		r := runDrawn(t, name, set)
		for _, op := range r.out.Ops {
			if op.Effects > 1 {
				t.Fatalf("at-most-once: %s has %d effects\n%s", op.Op, op.Effects, r)
			}
		}
		if r.out.Finished() && r.out.Status != sim.Held {
			t.Fatalf("at-most-once: no operation has more than one effect, yet the checker says %s\n%s", r.out.Status, r)
		}
	})
}

// At-least-once never loses: the sender retries and the broker redelivers
// until acknowledged, so once a run finishes every operation has at least
// one effect. (Duplicates are normal here.)
func TestPropertyAtLeastOnceNeverLoses(t *testing.T) {
	var count finishedCount
	rapid.Check(t, func(t *rapid.T) {
		name, set := drawSettings(t, sim.AtLeastOnce, false)
		r := runDrawn(t, name, set)
		count.add(r.out)
		if !r.out.Finished() {
			return
		}
		for _, op := range r.out.Ops {
			if op.Effects < 1 {
				t.Fatalf("at-least-once: %s has no effect on a finished run\n%s", op.Op, r)
			}
		}
		if r.out.Status != sim.Held {
			t.Fatalf("at-least-once: every operation has an effect, yet the checker says %s\n%s", r.out.Status, r)
		}
	})
	count.check(t)
}

// At-least-once plus an idempotent consumer with a durable store gives
// exactly one effect per operation — crashes included — and every answer
// the client accepts for one key is the same. An unfinished run may still
// lack an effect, but it never has two.
func TestPropertyIdempotentExactlyOnce(t *testing.T) {
	var count finishedCount
	rapid.Check(t, func(t *rapid.T) {
		name, set := drawSettings(t, sim.Idempotent, true)
		set.Params["store"] = "durable"
		r := runDrawn(t, name, set)
		count.add(r.out)
		checkExactlyOnce(t, r)
		if r.out.Finished() && r.out.Status != sim.Held {
			t.Fatalf("idempotent: every operation has one effect, yet the checker says %s\n%s", r.out.Status, r)
		}
	})
	count.check(t)
}

// checkExactlyOnce fails t unless r keeps the idempotent promise: never
// more than one effect, exactly one on a finished run, and at most one
// distinct response per operation. A duplicate fails on its own line, so
// that rapid, which keeps a shrunk failure only if it fails on the same
// line, shrinks a duplicate to a smaller duplicate.
func checkExactlyOnce(t *rapid.T, r *drawnRun) {
	for _, op := range r.out.Ops {
		if op.Effects > 1 {
			t.Fatalf("idempotent: %s duplicated: %d effects\n%s", op.Op, op.Effects, r)
		}
	}
	for _, op := range r.out.Ops {
		if op.DistinctOutcomes > 1 {
			t.Fatalf("idempotent: %s got %d different responses for one key\n%s", op.Op, op.DistinctOutcomes, r)
		}
	}
	if !r.out.Finished() {
		return
	}
	for _, op := range r.out.Ops {
		if op.Effects != 1 {
			t.Fatalf("idempotent: %s lost: %d effects on a finished run\n%s", op.Op, op.Effects, r)
		}
	}
}

// Each classic bug breaks the idempotent promise: rapid must find a
// schedule that duplicates an effect, and shrink it to a minimal one, which
// the test prints and replays. The fault the bug needs is drawn non-zero;
// the others (slow aside, to keep each story to its own fault) are drawn
// as in the other properties and shrink away.
func TestPropertyBugsDuplicate(t *testing.T) {
	cases := []struct {
		scenario string
		param    string // the bug switch, name=value
		needs    string // the fault the bug needs: "crash" or "ack-loss"
	}{
		{"double-billing", "store=memory", "crash"},
		{"double-billing", "mark=after", "crash"},
		{"double-billing", "key=per-attempt", "ack-loss"},
		{"at-least-once-duplicate", "store=memory", "crash"},
		{"at-least-once-duplicate", "mark=after", "crash"},
	}
	for _, tc := range cases {
		name := tc.scenario + "/" + tc.param
		key, value, _ := strings.Cut(tc.param, "=")
		t.Run(name, func(t *testing.T) {
			var last *drawnRun // the last failing run: rapid replays the shrunk one last
			found, report := expectCounterexample(t, func(rt *rapid.T) {
				last = nil
				ops := rapid.IntRange(1, 6).Draw(rt, "ops")
				faults := drawFaults(rt, probabilities, false)
				need := rapid.SampledFrom(probabilities[1:]).Draw(rt, tc.needs+">0")
				switch tc.needs {
				case "crash":
					faults.Probability[sim.FaultCrash] = need
				case "ack-loss":
					faults.Probability[sim.FaultAckLoss] = need
				}
				set := scenarios.Settings{
					Semantics: sim.Idempotent,
					Ops:       ops,
					Faults:    faults,
					Params:    map[string]string{key: value},
				}
				r := runDrawn(rt, tc.scenario, set)
				for _, op := range r.out.Ops {
					if op.Effects > 1 {
						last = r
					}
				}
				checkExactlyOnce(rt, r)
			})
			if !found {
				t.Fatalf("rapid found no schedule where %s breaks exactly-once; the bug is not shown", name)
			}
			if last == nil {
				t.Fatalf("rapid found a counterexample that is not a duplicate:\n%s", report)
			}
			t.Logf("%s\n%s\nshrunk counterexample: %s", firstLine(report), reproLine(report), last)
			checkReplay(t, last)
		})
	}
}

// checkReplay replays r's fault schedule with sim.Scripted — the plan,
// named by identity, with no rapid behind it — and requires the same trace
// and the same duplicate. It also reports whether the schedule is
// 1-minimal: dropping any one fault should make the duplicate go away.
func checkReplay(t *testing.T, r *drawnRun) {
	t.Helper()
	sc, err := scenarios.Lookup(r.name)
	if err != nil {
		t.Fatal(err)
	}
	replay := func(faults []sim.Fault) *sim.Outcome {
		out, err := runs.Outcome(sc, r.set, sim.NewScripted(faults, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := replay(r.faults)
	if out.Digest != r.out.Digest {
		t.Fatalf("the recorded schedule does not replay: digest %x, rapid's run %x\n%s", out.Digest, r.out.Digest, r)
	}
	if out.MaxEffects() < 2 {
		t.Fatalf("the replayed schedule does not duplicate (max effects %d)\n%s", out.MaxEffects(), r)
	}
	for i := range r.faults {
		without := slices.Delete(slices.Clone(r.faults), i, i+1)
		if o := replay(without); o.MaxEffects() > 1 {
			t.Logf("not 1-minimal: without fault %d (%s) the run still duplicates",
				i+1, simrapid.FormatFaults(r.topo, r.faults[i:i+1]))
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// reproLine returns rapid's "To reproduce, specify …" line of a report.
func reproLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "To reproduce") {
			return line
		}
	}
	return ""
}

// expectCounterexample runs prop under rapid.Check and reports whether
// rapid falsified it, with rapid's report (it carries the seed that
// reproduces it). The failure is captured, not propagated: here a
// counterexample is the expected result. The search stops at the first
// counterexample, so it may try many cases cheaply: at least
// searchChecks, whatever -rapid.checks says, and it writes no fail file.
func expectCounterexample(t *testing.T, prop func(*rapid.T)) (bool, string) {
	t.Helper()
	setFlag(t, "rapid.nofailfile", func(string) string { return "true" })
	setFlag(t, "rapid.checks", func(old string) string {
		if n, err := strconv.Atoi(old); err == nil && n >= searchChecks {
			return old
		}
		return strconv.Itoa(searchChecks)
	})
	c := &captureTB{name: t.Name()}
	rapid.Check(c, prop)
	return c.failed, strings.Join(c.errors, "\n")
}

// searchChecks is the least number of cases a counterexample search tries.
const searchChecks = 1000

// setFlag sets a registered command-line flag for the rest of the test.
func setFlag(t *testing.T, name string, value func(old string) string) {
	t.Helper()
	f := flag.Lookup(name)
	if f == nil {
		t.Fatalf("flag -%s is not registered", name)
	}
	old := f.Value.String()
	if err := f.Value.Set(value(old)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
}

// captureTB is a rapid.TB that records a failure instead of failing the
// test. rapid reports a falsified property with Errorf, then replays the
// shrunk case, then calls FailNow; none of these stop the goroutine here.
type captureTB struct {
	name   string
	failed bool
	errors []string
}

var _ rapid.TB = (*captureTB)(nil)

func (c *captureTB) Helper()                  {}
func (c *captureTB) Name() string             { return c.name }
func (c *captureTB) Logf(string, ...any)      {}
func (c *captureTB) Log(...any)               {}
func (c *captureTB) Skipf(f string, a ...any) { c.Errorf("skipped: "+f, a...) }
func (c *captureTB) Skip(a ...any)            { c.Error(append([]any{"skipped: "}, a...)...) }
func (c *captureTB) SkipNow()                 { c.Errorf("skipped") }
func (c *captureTB) Errorf(f string, a ...any) {
	c.failed = true
	c.errors = append(c.errors, fmt.Sprintf(f, a...))
}
func (c *captureTB) Error(a ...any)            { c.failed = true; c.errors = append(c.errors, fmt.Sprint(a...)) }
func (c *captureTB) Fatalf(f string, a ...any) { c.Errorf(f, a...) }
func (c *captureTB) Fatal(a ...any)            { c.Error(a...) }
func (c *captureTB) FailNow()                  { c.failed = true }
func (c *captureTB) Fail()                     { c.failed = true }
func (c *captureTB) Failed() bool              { return c.failed }
