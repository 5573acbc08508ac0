package sim_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// TestCancelledTimerNeverFires: a node arms a retry timer per operation
// and cancels op-2's when its answer comes; op-2's timer neither fires
// (the handler never sees it) nor shows in the trace, op-1's still does,
// and the run ends finished at the last live timer, not at the time of the
// cancelled one.
func TestCancelledTimerNeverFires(t *testing.T) {
	const retry, other sim.TimerKind = 1, 2
	var fired []string
	var cancelled []int
	node := &fnNode{
		start: func(ctx *sim.Context) {
			ctx.After(10, sim.Timer{Kind: retry, Op: 1, Attempt: 1})
			ctx.After(500, sim.Timer{Kind: retry, Op: 2, Attempt: 1})
			ctx.After(600, sim.Timer{Kind: retry, Op: 2, Attempt: 2})
			ctx.After(20, sim.Timer{Kind: other, Op: 2})
			ctx.After(5, sim.Timer{Kind: other, Op: 3})
		},
		timer: func(ctx *sim.Context, tm sim.Timer) {
			fired = append(fired, ctx.Now().String()+" "+tm.Op.String())
			if tm.Kind == other && tm.Op == 2 { // op-2 has its answer
				cancelled = append(cancelled, ctx.CancelTimers(retry, 2))
			}
		},
	}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "client"}}, Timers: []string{"", "retry", "other"}},
		Nodes:    []sim.Node{node},
		Network:  &fixedNet{},
		Ops:      3,
	}
	var tr sim.Trace
	o := newWorld(t, cfg, sim.NewRandom(1), &tr).Run()
	if got, want := strings.Join(fired, ", "), "5ms op-3, 10ms op-1, 20ms op-2"; got != want {
		t.Errorf("timers fired: %s, want %s", got, want)
	}
	if len(cancelled) != 1 || cancelled[0] != 2 {
		t.Errorf("CancelTimers returned %v, want [2]", cancelled)
	}
	for _, e := range tr.Events {
		if e.Kind == sim.EvTimerFire && e.Label == uint16(retry) && e.Msg.Op == 2 {
			t.Errorf("the trace shows cancelled timer retry op-2 #%d firing at %s", e.Msg.Attempt, e.At)
		}
	}
	if o.End != sim.Quiescent {
		t.Errorf("run ended %s, want finished", o.End)
	}
	if o.EndTime != 20 {
		t.Errorf("run ended at %s, want 20ms (the last live timer)", o.EndTime)
	}
}

// TestCancelTimersOnlyOwnLiveTimers: a node cancels only its own timers.
func TestCancelTimersOnlyOwnLiveTimers(t *testing.T) {
	const retry sim.TimerKind = 1
	var got int
	a := &fnNode{
		start: func(ctx *sim.Context) { ctx.After(50, sim.Timer{Kind: retry, Op: 1}) },
	}
	b := &fnNode{
		start: func(ctx *sim.Context) {
			ctx.After(50, sim.Timer{Kind: retry, Op: 1})
			got = ctx.CancelTimers(retry, 1)
		},
	}
	cfg := &sim.Config{
		Topology: &sim.Topology{Nodes: []sim.NodeSpec{{Name: "a"}, {Name: "b"}}, Timers: []string{"", "retry"}},
		Nodes:    []sim.Node{a, b},
		Network:  &fixedNet{},
		Ops:      1,
	}
	var tr sim.Trace
	newWorld(t, cfg, sim.NewRandom(1), &tr).Run()
	if got != 1 {
		t.Errorf("b cancelled %d timers, want its own 1", got)
	}
	n := 0
	for _, e := range tr.Events {
		if e.Kind == sim.EvTimerFire {
			n++
			if e.Node != 0 {
				t.Errorf("b's cancelled timer fired")
			}
		}
	}
	if n != 1 {
		t.Errorf("%d timers fired, want a's 1", n)
	}
}
