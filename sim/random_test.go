package sim_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestRandomKeyedByIdentity is keyed randomness on raw choices: the answer
// to a choice depends on its identity and occurrence, not on its position.
// Asking the same choices in another order — identities regrouped, each
// identity's own choices still in their order — gives every choice the same
// answer. A stream-based chooser fails this at once.
func TestRandomKeyedByIdentity(t *testing.T) {
	script := choiceScript(600)
	order := make([]int, len(script))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(script[a].Key, script[b].Key) })
	for seed := uint64(0); seed < 20; seed++ {
		want := answers(sim.NewRandom(seed), script)
		r := sim.NewRandom(seed)
		for _, i := range order {
			if got := r.Choose(script[i]); got != want[i] {
				t.Fatalf("seed %d: choice %d (%s) answered %d in another order, %d in script order", seed, i, script[i].Kind, got, want[i])
			}
		}
	}
}

// TestChoiceKeyIsByName checks that a choice's key depends on the names it
// hits, not on the numbers a build gave them: two topologies that number
// the same nodes, messages and crash points differently give the same key
// to the same named choice, and another name gives another key.
func TestChoiceKeyIsByName(t *testing.T) {
	a := &sim.Topology{
		Nodes:    []sim.NodeSpec{{Name: "client"}, {Name: "service"}},
		Messages: []string{"", "pay", "pay-response"},
		Points:   []string{"", "after-lock", "after-charge"},
	}
	b := &sim.Topology{
		Nodes:    []sim.NodeSpec{{Name: "service"}, {Name: "client"}},
		Messages: []string{"", "other", "pay-response", "pay"},
		Points:   []string{"", "after-charge", "after-lock"},
	}
	loss := func(topo *sim.Topology, from, to, msg string) uint64 {
		f, _ := topo.NodeByName(from)
		to2, _ := topo.NodeByName(to)
		m, _ := topo.MessageByName(msg)
		c := sim.Choice{Kind: sim.ChoiceLoss, N: 2, Node: f, Peer: to2, Msg: m, Op: 3, Attempt: 1}
		return topo.ChoiceKey(&c)
	}
	crash := func(topo *sim.Topology, point string) uint64 {
		n, _ := topo.NodeByName("service")
		p, _ := topo.PointByName(point)
		m, _ := topo.MessageByName("pay")
		c := sim.Choice{Kind: sim.ChoiceCrash, N: 2, Node: n, Peer: sim.NoNode, Msg: m, Point: p, Op: 2, Attempt: 1}
		return topo.ChoiceKey(&c)
	}
	if loss(a, "service", "client", "pay-response") != loss(b, "service", "client", "pay-response") {
		t.Error("the same lost response has different keys under two numberings")
	}
	if loss(a, "service", "client", "pay-response") == loss(a, "client", "service", "pay-response") {
		t.Error("a loss on the way back has the key of the loss on the way there")
	}
	if loss(a, "client", "service", "pay") == loss(a, "client", "service", "pay-response") {
		t.Error("two message kinds have the same key")
	}
	if crash(a, "after-charge") != crash(b, "after-charge") {
		t.Error("the same crash has different keys under two numberings")
	}
	if crash(a, "after-charge") == crash(a, "after-lock") {
		t.Error("two crash points have the same key")
	}
	jitter := sim.Choice{Kind: sim.ChoiceJitter, N: 10, Node: 0, Peer: 1, Msg: 1, Op: 1, Attempt: 1}
	dup := jitter
	dup.Copy = 1
	if a.ChoiceKey(&jitter) == a.ChoiceKey(&dup) {
		t.Error("the jitter of a duplicate has the key of the jitter of the message")
	}
}

// TestRandomRates checks that keyed answers keep their probabilities: over
// 200 000 distinct identities a fault with P=0.25 fires 25 % ± 0.5 % of the
// time, and a jitter of 7 alternatives takes each within 3 % of its share.
func TestRandomRates(t *testing.T) {
	const n = 200_000
	r := sim.NewRandom(42)
	fired := 0
	var spread [7]int
	for i := range n {
		c := sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: 0.25, Key: sim.NameKey(fmt.Sprint("loss", i))}
		fired += r.Choose(c)
		j := sim.Choice{Kind: sim.ChoiceJitter, N: 7, Key: sim.NameKey(fmt.Sprint("jitter", i))}
		v := r.Choose(j)
		if v < 0 || v >= 7 {
			t.Fatalf("jitter answered %d, want 0..6", v)
		}
		spread[v]++
	}
	if rate := float64(fired) / n; math.Abs(rate-0.25) > 0.005 {
		t.Errorf("P=0.25 fired at rate %.4f", rate)
	}
	for v, k := range spread {
		if share := float64(k) / (n / 7.0); math.Abs(share-1) > 0.03 {
			t.Errorf("jitter %d taken %d times, %.3f of its share", v, k, share)
		}
	}
}

// TestRandomCountsOccurrences checks the occurrence table past several
// growths: every identity's n-th choice is answered like a fresh Random's
// n-th choice of that identity alone, zero key included.
func TestRandomCountsOccurrences(t *testing.T) {
	const keys, rounds = 5000, 3
	choice := func(k int) sim.Choice {
		c := sim.Choice{Kind: sim.ChoiceJitter, N: 1 << 30}
		if k > 0 {
			c.Key = sim.NameKey(fmt.Sprint(k))
		}
		return c
	}
	all := sim.NewRandom(9)
	got := make([][]int, keys)
	for range rounds {
		for k := range keys {
			got[k] = append(got[k], all.Choose(choice(k)))
		}
	}
	for k := 0; k < keys; k += 97 {
		alone := sim.NewRandom(9)
		for n := range rounds {
			if v := alone.Choose(choice(k)); v != got[k][n] {
				t.Fatalf("key %d occurrence %d: %d among %d identities, %d alone", k, n+1, got[k][n], keys, v)
			}
		}
		if got[k][0] == got[k][1] && got[k][1] == got[k][2] {
			t.Fatalf("key %d: three occurrences answered the same %d", k, got[k][0])
		}
	}
}

// TestRandomSteadyStateAllocatesNothing checks that counting occurrences
// does not allocate per choice once the table holds a run's identities.
func TestRandomSteadyStateAllocatesNothing(t *testing.T) {
	script := choiceScript(600)
	r := sim.NewRandom(1)
	answers(r, script)
	allocs := testing.AllocsPerRun(100, func() {
		for i := range script {
			r.Choose(script[i])
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per pass over %d known identities, want 0", allocs, len(script))
	}
}
