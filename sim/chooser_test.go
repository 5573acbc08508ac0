package sim_test

import (
	"fmt"
	"testing"

	"github.com/oncesim/once/sim"
)

// scriptTopo names the nodes, messages and crash points of choiceScript.
var scriptTopo = &sim.Topology{
	Nodes:    []sim.NodeSpec{{Name: "a"}, {Name: "b"}, {Name: "c"}},
	Messages: []string{"", "ping", "pong"},
	Points:   []string{"", "p1", "p2", "p3"},
}

// choiceScript is a fixed, varied sequence of choices, each stamped with
// its key as the world stamps it: faults of every kind with probabilities
// strictly between 0 and 1, and jitter of several widths.
func choiceScript(n int) []sim.Choice {
	kinds := []sim.ChoiceKind{sim.ChoiceLoss, sim.ChoiceJitter, sim.ChoiceDuplicate, sim.ChoiceSlow, sim.ChoiceJitter, sim.ChoiceCrash}
	out := make([]sim.Choice, n)
	for i := range out {
		k := kinds[i%len(kinds)]
		c := sim.Choice{Kind: k, N: 2, P: 0.3 + 0.1*float64(i%5), Node: sim.NodeID(i % 3), Peer: sim.NodeID((i + 1) % 3),
			Msg: sim.MsgKind(1 + i%2), Op: sim.OpID(1 + i%4), Attempt: int32(1 + i%2)}
		if k == sim.ChoiceJitter {
			c.N, c.P = int32(2+i%17), 0
		}
		if k == sim.ChoiceCrash {
			c.Peer, c.Point = sim.NoNode, sim.PointID(1+i%3)
		}
		c.Key = scriptTopo.ChoiceKey(&c)
		out[i] = c
	}
	return out
}

func answers(ch sim.Chooser, script []sim.Choice) []int {
	out := make([]int, len(script))
	for i := range script {
		c := script[i]
		out[i] = ch.Choose(c)
	}
	return out
}

// TestRandomDeterministic checks that a seed fixes every answer, that
// answers are in range, and that different seeds give different faults
// and different jitter.
func TestRandomDeterministic(t *testing.T) {
	script := choiceScript(600)
	seen := map[string]uint64{}
	for seed := uint64(0); seed < 20; seed++ {
		a := answers(sim.NewRandom(seed), script)
		b := answers(sim.NewRandom(seed), script)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("seed %d: two Randoms answered differently", seed)
		}
		for i, v := range a {
			if v < 0 || v >= int(script[i].N) {
				t.Fatalf("seed %d: choice %d (%s, N=%d) answered %d", seed, i, script[i].Kind, script[i].N, v)
			}
		}
		// The faults and the jitter must each depend on the seed.
		var faults, jitter []int
		for i, v := range a {
			if script[i].Kind.IsFault() {
				faults = append(faults, v)
			} else {
				jitter = append(jitter, v)
			}
		}
		for _, key := range []string{"faults " + fmt.Sprint(faults), "jitter " + fmt.Sprint(jitter)} {
			if other, dup := seen[key]; dup {
				t.Fatalf("seeds %d and %d answered identically: %.40s…", other, seed, key)
			}
			seen[key] = seed
		}
	}
}

// TestRandomCertainFaults checks the ends of the probability range: P=0
// never fires and P=1 always fires, whatever the seed.
func TestRandomCertainFaults(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		r := sim.NewRandom(seed)
		for _, k := range []sim.ChoiceKind{sim.ChoiceLoss, sim.ChoiceDuplicate, sim.ChoiceSlow, sim.ChoiceCrash} {
			for range 20 {
				if v := r.Choose(sim.Choice{Kind: k, N: 2, P: 0}); v != 0 {
					t.Fatalf("seed %d: %s with P=0 fired", seed, k)
				}
				if v := r.Choose(sim.Choice{Kind: k, N: 2, P: 1}); v != 1 {
					t.Fatalf("seed %d: %s with P=1 did not fire", seed, k)
				}
			}
		}
	}
}

// TestRandomZeroProbabilityConsumesNothing checks the documented promise
// that a P=0 fault draws no random number: interleaving such choices does
// not change the answers to the others.
func TestRandomZeroProbabilityConsumesNothing(t *testing.T) {
	script := choiceScript(300)
	var padded []sim.Choice
	for i, c := range script {
		padded = append(padded, c)
		if i%3 == 0 {
			padded = append(padded, sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: 0, Op: 99})
		}
	}
	for seed := uint64(0); seed < 10; seed++ {
		plain := answers(sim.NewRandom(seed), script)
		all := answers(sim.NewRandom(seed), padded)
		var got []int
		for i, c := range padded {
			if c.Op != 99 {
				got = append(got, all[i])
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(plain) {
			t.Fatalf("seed %d: P=0 choices shifted the other answers", seed)
		}
	}
}

// TestRandomJitterMatchesNewJitter checks that Random answers jitter
// exactly as NewJitter(seed) does, whatever faults are asked in between:
// this is what lets a replay take its faults from a plan and its jitter
// from the seed.
func TestRandomJitterMatchesNewJitter(t *testing.T) {
	script := choiceScript(600)
	var jitterOnly []sim.Choice
	for _, c := range script {
		if c.Kind == sim.ChoiceJitter {
			jitterOnly = append(jitterOnly, c)
		}
	}
	for seed := uint64(0); seed < 10; seed++ {
		mixed := answers(sim.NewRandom(seed), script)
		var fromRandom []int
		for i, c := range script {
			if c.Kind == sim.ChoiceJitter {
				fromRandom = append(fromRandom, mixed[i])
			}
		}
		fromJitter := answers(sim.NewJitter(seed), jitterOnly)
		if fmt.Sprint(fromRandom) != fmt.Sprint(fromJitter) {
			t.Fatalf("seed %d: Random's jitter answers differ from NewJitter's", seed)
		}
	}
}

// TestJitterAndDefaultsNeverFault checks that the two fault-free choosers
// answer every fault with 0 (even with P=1), and that Defaults answers
// jitter with 0 too.
func TestJitterAndDefaultsNeverFault(t *testing.T) {
	j := sim.NewJitter(1)
	nonZero := 0
	for i, c := range choiceScript(300) {
		c.P = 1
		if c.Kind.IsFault() {
			if v := j.Choose(c); v != 0 {
				t.Fatalf("Jitter answered fault choice %d (%s) with %d", i, c.Kind, v)
			}
		} else if j.Choose(c) != 0 {
			nonZero++
		}
		if v := (sim.Defaults{}).Choose(c); v != 0 {
			t.Fatalf("Defaults answered choice %d (%s) with %d", i, c.Kind, v)
		}
	}
	if nonZero == 0 {
		t.Fatal("Jitter answered every jitter choice with 0")
	}
	if v := j.Choose(sim.Choice{Kind: sim.ChoiceJitter, N: 1}); v != 0 {
		t.Fatalf("Jitter with one alternative answered %d", v)
	}
}

// TestRecordingWritesNonZeroFaults checks that Recording passes the inner
// answers through unchanged and writes down exactly the non-zero fault
// answers, each with its identity and its 1-based occurrence among the
// choices of that identity.
func TestRecordingWritesNonZeroFaults(t *testing.T) {
	script := choiceScript(400)
	for seed := uint64(0); seed < 10; seed++ {
		want := answers(sim.NewRandom(seed), script)
		rec := sim.NewRecording(sim.NewRandom(seed))
		got := answers(rec, script)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d: Recording changed the answers", seed)
		}
		type identity struct {
			kind    sim.ChoiceKind
			node    sim.NodeID
			peer    sim.NodeID
			msg     sim.MsgKind
			op      sim.OpID
			attempt int32
			point   sim.PointID
		}
		count := map[identity]int32{}
		var wantFaults []sim.Fault
		for i, c := range script {
			if !c.Kind.IsFault() {
				continue
			}
			id := identity{c.Kind, c.Node, c.Peer, c.Msg, c.Op, c.Attempt, c.Point}
			count[id]++
			if want[i] != 0 {
				wantFaults = append(wantFaults, sim.Fault{Kind: c.Kind, Node: c.Node, Peer: c.Peer, Msg: c.Msg,
					Op: c.Op, Attempt: c.Attempt, Point: c.Point, Occurrence: count[id], Value: int32(want[i])})
			}
		}
		if len(wantFaults) == 0 {
			t.Fatalf("seed %d: no fault fired in %d choices; the test proves nothing", seed, len(script))
		}
		if fmt.Sprint(rec.Faults) != fmt.Sprint(wantFaults) {
			t.Fatalf("seed %d: recorded\n%v\nwant\n%v", seed, rec.Faults, wantFaults)
		}
	}
}

// TestScriptedAnswersThePlan checks Scripted on raw choices: named
// occurrences get the plan's value, everything else 0, jitter comes from
// Rest, and Used counts the hits.
func TestScriptedAnswersThePlan(t *testing.T) {
	loss := sim.Choice{Kind: sim.ChoiceLoss, N: 2, Node: 0, Peer: 1, Msg: 1, Op: 3, Attempt: 1}
	other := loss
	other.Attempt = 2
	plan := []sim.Fault{
		{Kind: sim.ChoiceLoss, Node: 0, Peer: 1, Msg: 1, Op: 3, Attempt: 1, Occurrence: 2, Value: 1},
		{Kind: sim.ChoiceLoss, Node: 0, Peer: 1, Msg: 1, Op: 3, Attempt: 1, Occurrence: 4, Value: 5}, // out of range: ignored
	}
	s := sim.NewScripted(plan, sim.NewJitter(7))
	var got []int
	for range 4 {
		c, o := loss, other
		got = append(got, s.Choose(c), s.Choose(o))
	}
	if want := "[0 0 1 0 0 0 0 0]"; fmt.Sprint(got) != want {
		t.Fatalf("answers %v, want %s", got, want)
	}
	if s.Used() != 1 {
		t.Fatalf("Used() = %d, want 1", s.Used())
	}
	jit := sim.Choice{Kind: sim.ChoiceJitter, N: 1000}
	fromScripted := answers(s, []sim.Choice{jit, jit, jit})
	fromJitter := answers(sim.NewJitter(7), []sim.Choice{jit, jit, jit})
	if fmt.Sprint(fromScripted) != fmt.Sprint(fromJitter) {
		t.Fatalf("jitter from Scripted %v, from its Rest %v", fromScripted, fromJitter)
	}
	if v := sim.NewScripted(nil, nil).Choose(jit); v != 0 {
		t.Fatalf("Scripted without Rest answered jitter with %d", v)
	}
}
