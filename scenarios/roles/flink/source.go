package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// FlinkSource is a replayable source: record n of the input is operation
// n, and it can start reading from any offset. It emits one record every
// Interval once it is deployed for an attempt and the sink has asked for
// that attempt's stream. On a checkpoint trigger it snapshots its offset —
// acknowledges it to the job manager — and then puts the barrier into the
// stream, after every record it has emitted so far.
type FlinkSource struct {
	JobManager sim.NodeID
	Sink       sim.NodeID
	Interval   sim.Time
}

// fsState row 1: {Value: attempt, Aux: offset emitted so far, State: 1
// emitting, Status: attempt the sink asked for}; row 2: {Value: the last
// checkpoint snapshotted}.
const fsState sim.TableID = 0

func flinkSourceTables() []sim.TableSpec { return []sim.TableSpec{{Name: "source"}} }

// Start does nothing: the source waits to be deployed.
func (s *FlinkSource) Start(*sim.Context) {}

func (s *FlinkSource) state(ctx *sim.Context) sim.Record {
	r, _ := ctx.Get(fsState, 1, 0)
	return r
}

func (s *FlinkSource) maybeStart(ctx *sim.Context, r sim.Record) {
	if r.Value > 0 && r.Status == int32(r.Value) && r.State == 0 {
		r.State = 1
		ctx.Put(fsState, 1, 0, r)
		ctx.After(s.Interval, sim.Timer{Kind: TimerFlinkEmit, Attempt: int32(r.Value)})
	}
}

// Receive handles deployment, the sink's subscription and triggers.
func (s *FlinkSource) Receive(ctx *sim.Context, m sim.Message) {
	r := s.state(ctx)
	switch m.Kind {
	case MsgFlinkDeploy:
		if int64(m.Attempt) <= r.Value {
			return
		}
		r.Value, r.Aux, r.State = int64(m.Attempt), m.Key, 0 // rewind to the checkpoint's offset
		ctx.Put(fsState, 1, 0, r)
		s.maybeStart(ctx, r)
	case MsgFlinkSubscribe:
		if m.Attempt > r.Status {
			r.Status = m.Attempt
			ctx.Put(fsState, 1, 0, r)
		}
		s.maybeStart(ctx, r)
	case MsgFlinkTrigger:
		last, _ := ctx.Get(fsState, 2, 0)
		if int64(m.Attempt) != r.Value || r.State == 0 || m.Key <= last.Value {
			// Not running this attempt, or a late trigger subsumed by a
			// newer checkpoint: declined. Barriers go out in checkpoint order.
			return
		}
		ctx.Put(fsState, 2, 0, sim.Record{Value: m.Key})
		ctx.Send(s.JobManager, sim.Message{Kind: MsgFlinkAck, Key: m.Key, Attempt: m.Attempt, Value: r.Aux})
		ctx.Send(s.Sink, sim.Message{Kind: MsgFlinkBarrier, Key: m.Key, Attempt: m.Attempt})
	}
}

// Timer emits the next record of the current attempt.
func (s *FlinkSource) Timer(ctx *sim.Context, t sim.Timer) {
	r := s.state(ctx)
	if t.Kind != TimerFlinkEmit || int64(t.Attempt) != r.Value || r.Aux >= int64(ctx.Ops()) {
		return
	}
	r.Aux++
	ctx.Put(fsState, 1, 0, r)
	ctx.Send(s.Sink, sim.Message{Kind: MsgFlinkRecord, Op: sim.OpID(r.Aux), Attempt: t.Attempt, Key: r.Aux})
	ctx.After(s.Interval, sim.Timer{Kind: TimerFlinkEmit, Attempt: t.Attempt})
}

var (
	flinkSourceJobmanager = roles.Node("jobmanager", "the checkpoint coordinator")
	flinkSourceSink       = roles.Node("sink", "where the stream goes")
	flinkSourceInterval   = roles.PositiveDuration("interval", "50ms", "time between two records")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "flink-source",
		Doc:     "a replayable source (record n is operation n): emits records, snapshots its offset and emits a barrier on each checkpoint",
		Options: []roles.Option{flinkSourceJobmanager, flinkSourceSink, flinkSourceInterval},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &FlinkSource{JobManager: flinkSourceJobmanager.Get(a), Sink: flinkSourceSink.Get(a), Interval: flinkSourceInterval.Get(a)}
			return s, flinkSourceTables()
		},
	})
}
