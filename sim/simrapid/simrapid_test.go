package simrapid

import (
	"testing"

	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

var topo = &sim.Topology{
	Nodes:    []sim.NodeSpec{{Name: "client"}, {Name: "service"}},
	Messages: []string{"", "pay", "pay-response"},
	Points:   []string{"", "after-lock", "after-charge"},
}

func TestThreshold(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want int
	}{{0.5, 500}, {0.1, 900}, {0.3, 700}, {0.0004, 1000}, {0.9996, 0}, {0.001, 999}} {
		if got := threshold(c.p); got != c.want {
			t.Errorf("threshold(%v) = %d, want %d", c.p, got, c.want)
		}
	}
}

// Choose answers the choices that are not drawn without touching rapid,
// and records every fault it answers, certain ones included.
func TestChooseUndrawn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ch := New(t)
		never := sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: 0, Node: 1, Peer: 0, Msg: 2, Op: 1, Attempt: 1}
		always := sim.Choice{Kind: sim.ChoiceCrash, N: 2, P: 1, Node: 1, Peer: sim.NoNode, Point: 2, Op: 2, Attempt: 1}
		jitter := sim.Choice{Kind: sim.ChoiceJitter, N: 21, Node: 0, Peer: 1, Msg: 1, Op: 1, Attempt: 1}
		if v := ch.Choose(never); v != 0 {
			t.Fatalf("P=0: got %d", v)
		}
		if v := ch.Choose(always); v != 1 {
			t.Fatalf("P=1: got %d", v)
		}
		if v := ch.Choose(jitter); v != 0 {
			t.Fatalf("jitter: got %d", v)
		}
		f := ch.Faults()
		if len(f) != 1 || f[0].Kind != sim.ChoiceCrash || f[0].Op != 2 || f[0].Occurrence != 1 || f[0].Value != 1 {
			t.Fatalf("recorded %+v, want the one crash", f)
		}
	})
}

// A drawn fault is recorded under its identity and occurrence, so the
// recording replays with sim.Scripted.
func TestChooseRecordsAndReplays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ch := New(t)
		ch.Topology = topo
		var answers []int
		var choices []sim.Choice
		for op := sim.OpID(1); op <= 3; op++ {
			for i := 0; i < 2; i++ { // the same identity twice: occurrences 1 and 2
				c := sim.Choice{Kind: sim.ChoiceLoss, N: 2, P: 0.5, Node: 1, Peer: 0, Msg: 2, Op: op, Attempt: 1}
				choices = append(choices, c)
				answers = append(answers, ch.Choose(c))
			}
		}
		replay := sim.NewScripted(ch.Faults(), nil)
		for i := range choices {
			if v := replay.Choose(choices[i]); v != answers[i] {
				t.Fatalf("choice %d: drawn %d, replayed %d (faults %+v)", i, answers[i], v, ch.Faults())
			}
		}
	})
}

func TestLabel(t *testing.T) {
	loss := sim.Choice{Kind: sim.ChoiceLoss, Node: 1, Peer: 0, Msg: 2, Op: 3, Attempt: 1}
	crash := sim.Choice{Kind: sim.ChoiceCrash, Node: 1, Peer: sim.NoNode, Point: 2, Op: 2, Attempt: 1}
	for _, c := range []struct {
		topo *sim.Topology
		ch   *sim.Choice
		want string
	}{
		{topo, &loss, "loss service→client pay-response op-3/1 #1"},
		{topo, &crash, "crash service after-charge op-2/1 #1"},
		{nil, &loss, "loss n1→n0 m2 op-3/1 #1"},
	} {
		if got := label(c.topo, c.ch, 1); got != c.want {
			t.Errorf("label = %q, want %q", got, c.want)
		}
	}
}

func TestFormatFaults(t *testing.T) {
	faults := []sim.Fault{
		{Kind: sim.ChoiceLoss, Node: 1, Peer: 0, Msg: 2, Op: 3, Attempt: 1, Occurrence: 1, Value: 1},
		{Kind: sim.ChoiceCrash, Node: 1, Peer: sim.NoNode, Point: 2, Op: 2, Attempt: 1, Occurrence: 1, Value: 1},
		{Kind: sim.ChoiceCrash, Node: 1, Peer: sim.NoNode, Point: 1, Occurrence: 2, Value: 1},
	}
	want := "loss from=service to=client msg=pay-response op=3 attempt=1 occurrence=1\n" +
		"crash node=service point=after-charge op=2 attempt=1 occurrence=1\n" +
		"crash node=service point=after-lock op=0 attempt=0 occurrence=2"
	if got := FormatFaults(topo, faults); got != want {
		t.Errorf("FormatFaults =\n%s\nwant\n%s", got, want)
	}
	if got := FormatFaults(topo, nil); got != "no faults" {
		t.Errorf("FormatFaults(nil) = %q", got)
	}
}
