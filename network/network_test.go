package network

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// script is a Chooser that writes down every choice it is asked and
// answers from a list (0 once the list runs out).
type script struct {
	answers []int
	asked   []sim.Choice
}

func (s *script) Choose(c sim.Choice) int {
	s.asked = append(s.asked, c)
	if len(s.answers) == 0 {
		return 0
	}
	v := s.answers[0]
	s.answers = s.answers[1:]
	return v
}

func (s *script) kinds() string {
	var out []string
	for _, c := range s.asked {
		out = append(out, c.Kind.String())
	}
	return strings.Join(out, ",")
}

func msg(from, to sim.NodeID) *sim.Message {
	return &sim.Message{ID: 9, From: from, To: to, Kind: 3, Op: 4, Attempt: 2}
}

// TestZeroLinkIsPerfect checks that a new network's links lose nothing,
// duplicate nothing, take no time and ask the chooser nothing; a delay
// alone still asks nothing.
func TestZeroLinkIsPerfect(t *testing.T) {
	n := New(3)
	if err := n.Validate(); err != nil {
		t.Fatalf("a new network is invalid: %v", err)
	}
	ch := &script{answers: []int{1, 1, 1, 1}}
	for from := range sim.NodeID(3) {
		for to := range sim.NodeID(3) {
			for now := sim.Time(0); now < 1000; now += 250 {
				if f := n.Transmit(ch, msg(from, to), now); f != (sim.Fate{}) {
					t.Fatalf("%d→%d at %s: fate %+v, want the zero Fate", from, to, now, f)
				}
			}
		}
	}
	n.Link(0, 1).Delay = 40
	if f := n.Transmit(ch, msg(0, 1), 0); f != (sim.Fate{Delay: 40}) {
		t.Fatalf("delay-only link: fate %+v, want a 40ms delay", f)
	}
	if len(ch.asked) != 0 {
		t.Fatalf("a link without faults or jitter asked %d choices (%s)", len(ch.asked), ch.kinds())
	}
}

// TestLinksArePerDirection checks that configuring a→b leaves b→a and
// every other link alone: ack loss is loss on the way back only.
func TestLinksArePerDirection(t *testing.T) {
	n := New(3)
	n.Link(1, 0).Probability[sim.ChoiceLoss] = 1
	for from := range sim.NodeID(3) {
		for to := range sim.NodeID(3) {
			f := n.Transmit(sim.NewRandom(1), msg(from, to), 0)
			lost := f.Drop == sim.DropLoss
			if lost != (from == 1 && to == 0) {
				t.Fatalf("%d→%d: fate %+v", from, to, f)
			}
		}
	}
}

// TestPartitionDropsWithoutChoice checks that inside a partition window
// every message is dropped as a partition, with no choice asked, and that
// the window is half-open [From, To).
func TestPartitionDropsWithoutChoice(t *testing.T) {
	n := New(2)
	*n.Link(0, 1) = linkSpec{
		loss: 0.5, dup: 0.5, slow: 0.5, jitter: 10, delay: 5,
		parts: []Window{{From: 100, To: 200}, {From: 300, To: 301}},
	}.link()
	for _, now := range []sim.Time{100, 150, 199, 300} {
		ch := &script{}
		if f := n.Transmit(ch, msg(0, 1), now); f != (sim.Fate{Drop: sim.DropPartition}) {
			t.Fatalf("at %s: fate %+v, want a partition drop", now, f)
		}
		if len(ch.asked) != 0 {
			t.Fatalf("at %s: a partitioned send asked %s", now, ch.kinds())
		}
	}
	for _, now := range []sim.Time{0, 99, 200, 299, 301} {
		ch := &script{}
		if f := n.Transmit(ch, msg(0, 1), now); f.Drop != 0 {
			t.Fatalf("at %s (outside the windows): fate %+v", now, f)
		}
		if len(ch.asked) == 0 {
			t.Fatalf("at %s: a faulty link outside its windows asked nothing", now)
		}
	}
	// The other direction is not partitioned.
	if f := n.Transmit(&script{}, msg(1, 0), 150); f.Drop != 0 {
		t.Fatalf("1→0 inside 0→1's window: fate %+v", f)
	}
}

// TestChoiceOrder checks the documented order of choices — loss,
// duplicate, slow, late, then jitter per copy — the identity each choice
// carries, and the fate built from the answers.
func TestChoiceOrder(t *testing.T) {
	full := linkSpec{loss: 0.1, dup: 0.2, slow: 0.3, delay: 10, jitter: 6, slowHold: 1000}.link()
	cases := []struct {
		name    string
		link    Link
		answers []int
		kinds   string
		fate    sim.Fate
	}{
		{"lost", full, []int{1}, "loss", sim.Fate{Drop: sim.DropLoss}},
		{"delivered", full, []int{0, 0, 0, 4}, "loss,duplicate,slow,jitter", sim.Fate{Delay: 14}},
		{"slow", full, []int{0, 0, 1, 2}, "loss,duplicate,slow,jitter", sim.Fate{Delay: 1012, Faults: held(sim.ChoiceSlow)}},
		{"duplicated", full, []int{0, 1, 0, 3, 6}, "loss,duplicate,slow,jitter,jitter",
			sim.Fate{Delay: 13, Faults: held(sim.ChoiceDuplicate), DupDelay: 16}},
		{"duplicated and slow", full, []int{0, 1, 1, 0, 5}, "loss,duplicate,slow,jitter,jitter",
			sim.Fate{Delay: 1010, Faults: held(sim.ChoiceSlow, sim.ChoiceDuplicate), DupDelay: 15}},
		{"no loss configured", linkSpec{dup: 0.2, slow: 0.3, jitter: 1}.link(), []int{0, 0, 1},
			"duplicate,slow,jitter", sim.Fate{Delay: 1}},
		{"only slow", linkSpec{slow: 1, slowHold: 7}.link(), []int{1}, "slow", sim.Fate{Delay: 7, Faults: held(sim.ChoiceSlow)}},
		{"only jitter", linkSpec{jitter: 3}.link(), []int{3}, "jitter", sim.Fate{Delay: 3}},
		{"late", linkSpec{late: 0.5, lateHold: 60_000, delay: 10}.link(), []int{1}, "late", sim.Fate{Delay: 60_010, Faults: held(sim.ChoiceLate)}},
		{"slow and late", linkSpec{slow: 0.3, slowHold: 1000, late: 0.5, lateHold: 60_000}.link(), []int{1, 1}, "slow,late",
			sim.Fate{Delay: 61_000, Faults: held(sim.ChoiceSlow, sim.ChoiceLate)}},
		{"not late", linkSpec{late: 0.5, lateHold: 60_000, delay: 10}.link(), []int{0}, "late", sim.Fate{Delay: 10}},
	}
	// Each case twice: configured only (Transmit walks every link kind)
	// and validated (it walks the link's prepared list of kinds above 0).
	for _, prepared := range []bool{false, true} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/prepared=%v", tc.name, prepared), func(t *testing.T) {
				n := New(2)
				*n.Link(0, 1) = tc.link
				if prepared {
					if err := n.Validate(); err != nil {
						t.Fatal(err)
					}
				}
				ch := &script{answers: append([]int(nil), tc.answers...)}
				f := n.Transmit(ch, msg(0, 1), 0)
				if got := ch.kinds(); got != tc.kinds {
					t.Fatalf("asked %s, want %s", got, tc.kinds)
				}
				if f != tc.fate {
					t.Fatalf("fate %+v, want %+v", f, tc.fate)
				}
				for _, c := range ch.asked {
					if c.Node != 0 || c.Peer != 1 || c.Msg != 3 || c.Op != 4 || c.Attempt != 2 || c.Point != 0 {
						t.Fatalf("%s choice has identity %+v, want the message's", c.Kind, c)
					}
					want := map[sim.ChoiceKind]struct {
						n int32
						p float64
					}{
						sim.ChoiceLoss:      {2, tc.link.Probability[sim.ChoiceLoss]},
						sim.ChoiceDuplicate: {2, tc.link.Probability[sim.ChoiceDuplicate]},
						sim.ChoiceSlow:      {2, tc.link.Probability[sim.ChoiceSlow]},
						sim.ChoiceLate:      {2, tc.link.Probability[sim.ChoiceLate]},
						sim.ChoiceJitter:    {int32(tc.link.Jitter) + 1, 0},
					}[c.Kind]
					if c.N != want.n || c.P != want.p {
						t.Fatalf("%s choice has N=%d P=%v, want N=%d P=%v", c.Kind, c.N, c.P, want.n, want.p)
					}
				}
			})
		}
	}
}

// TestJitterRange checks with a Random chooser that delays stay within
// [Delay, Delay+Jitter] and that both ends are reached.
func TestJitterRange(t *testing.T) {
	n := New(2)
	*n.Link(0, 1) = linkSpec{delay: 40, jitter: 20}.link()
	r := sim.NewRandom(3)
	seen := map[sim.Time]bool{}
	for range 2000 {
		f := n.Transmit(r, msg(0, 1), 0)
		if f.Delay < 40 || f.Delay > 60 {
			t.Fatalf("delay %s outside [40ms, 60ms]", f.Delay)
		}
		seen[f.Delay] = true
	}
	if len(seen) != 21 {
		t.Fatalf("%d distinct delays in 2000 sends, want all 21", len(seen))
	}
}

// TestValidate checks that every probability outside [0,1] (NaN
// included), every negative delay and every inverted window is refused
// with an error naming it, and that the edges are accepted.
func TestValidate(t *testing.T) {
	good := []Link{
		{},
		linkSpec{loss: 1, dup: 1, slow: 1}.link(),
		linkSpec{loss: 0.5, delay: 1, jitter: 1, slowHold: 1, parts: []Window{{0, 0}, {5, 10}}}.link(),
	}
	for i, l := range good {
		if err := l.Validate(); err != nil {
			t.Errorf("good link %d refused: %v", i, err)
		}
	}
	nan, inf := math.NaN(), math.Inf(1)
	bad := []struct {
		link Link
		want string
	}{
		{linkSpec{loss: -0.01}.link(), "loss probability"},
		{linkSpec{loss: 1.01}.link(), "loss probability"},
		{linkSpec{loss: nan}.link(), "loss probability NaN"},
		{linkSpec{loss: inf}.link(), "loss probability"},
		{linkSpec{dup: nan}.link(), "duplicate probability"},
		{linkSpec{dup: -inf}.link(), "duplicate probability"},
		{linkSpec{slow: 2}.link(), "slow probability"},
		{linkSpec{slow: nan}.link(), "slow probability"},
		{linkSpec{delay: -1}.link(), "negative delay"},
		{linkSpec{jitter: -1}.link(), "negative delay"},
		{linkSpec{slowHold: -1}.link(), "negative delay"},
		{func() Link { var l Link; l.Probability[sim.ChoiceCrash] = 0.5; return l }(), "crash is not a link fault"},
		{Link{Partitions: []Window{{5, 10}, {10, 9}}}, "partition window [10,9)"},
	}
	for _, tc := range bad {
		err := tc.link.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "network: ") {
			t.Errorf("%+v: error %v, want one mentioning %q", tc.link, err, tc.want)
		}
	}
	n := New(3)
	n.Link(2, 1).Probability[sim.ChoiceDuplicate] = nan
	if err := n.Validate(); err == nil || !strings.Contains(err.Error(), "link 2→1") {
		t.Fatalf("network with a bad 2→1 link: %v, want an error naming link 2→1", err)
	}
}

// TestWindowContains checks the half-open interval at its edges.
func TestWindowContains(t *testing.T) {
	w := Window{From: 10, To: 20}
	got := fmt.Sprint(w.Contains(9), w.Contains(10), w.Contains(19), w.Contains(20))
	if got != "false true true false" {
		t.Fatalf("Contains(9,10,19,20) = %s", got)
	}
	if (Window{From: 5, To: 5}).Contains(5) {
		t.Fatal("an empty window contains its start")
	}
}

// linkSpec builds a Link with the four link kinds named as fields.
type linkSpec struct {
	loss, dup, slow, late             float64
	delay, jitter, slowHold, lateHold sim.Time
	parts                             []Window
}

func (s linkSpec) link() Link {
	l := Link{Delay: s.delay, Jitter: s.jitter, Partitions: s.parts}
	l.Probability[sim.ChoiceLoss] = s.loss
	l.Probability[sim.ChoiceDuplicate] = s.dup
	l.Probability[sim.ChoiceSlow] = s.slow
	l.Probability[sim.ChoiceLate] = s.late
	l.Hold[sim.ChoiceSlow] = s.slowHold
	l.Hold[sim.ChoiceLate] = s.lateHold
	return l
}

// held is the set of hold kinds.
func held(kinds ...sim.ChoiceKind) sim.KindSet {
	var s sim.KindSet
	for _, k := range kinds {
		s = s.With(k)
	}
	return s
}

// TestLinkAfterValidate: a link taken for configuration after Validate is
// read as configured, not as the prepared list left it.
func TestLinkAfterValidate(t *testing.T) {
	n := New(2)
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	n.Link(0, 1).Probability[sim.ChoiceLoss] = 1
	if f := n.Transmit(&script{answers: []int{1}}, msg(0, 1), 0); f.Drop != sim.DropLoss {
		t.Fatalf("a link given loss 1 after Validate delivered: %+v", f)
	}
}
