package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Source is a source of records: record n of the input is operation
// n, and it can start reading from any offset. It emits one record every
// Interval once it is deployed for an attempt and the sink has asked for
// that attempt's stream. On a checkpoint trigger it snapshots its offset —
// acknowledges it to the job manager — and then puts the barrier into the
// stream, after every record it has emitted so far.
//
// A non-replayable source (Replayable false: a socket, an HTTP push, a
// queue that deletes on delivery) cannot rewind: on a new attempt it
// goes on from where it was, and the records it emitted after the restored
// checkpoint are gone with the failed attempt.
type Source struct {
	JobManager sim.NodeID
	Sink       sim.NodeID
	Interval   sim.Time
	Replayable bool
}

// fsState row fsRowRun is a sourceRow; row fsRowLast is {Value: the last
// checkpoint snapshotted}.
const fsState sim.TableID = 0

const (
	fsRowRun  int64 = 1
	fsRowLast int64 = 2
)

func flinkSourceTables() []sim.TableSpec { return []sim.TableSpec{{Name: "source"}} }

// Start does nothing: the source waits to be deployed.
func (s *Source) Start(*sim.Context) {}

func (s *Source) state(ctx *sim.Context) sourceRow {
	r, _ := ctx.Get(fsState, fsRowRun, 0)
	return decodeSourceRow(r)
}

func (s *Source) maybeStart(ctx *sim.Context, r sourceRow) {
	if r.Attempt > 0 && r.Subscribed == int32(r.Attempt) && r.Emitting == 0 {
		r.Emitting = 1
		ctx.Put(fsState, fsRowRun, 0, r.encode())
		ctx.After(s.Interval, sim.Timer{Kind: TimerEmit, Attempt: int32(r.Attempt)})
	}
}

// Receive handles deployment, the sink's subscription and triggers.
func (s *Source) Receive(ctx *sim.Context, m sim.Message) {
	r := s.state(ctx)
	switch m.Kind {
	case MsgDeploy:
		d := decodeDeploy(m)
		if int64(d.Attempt) <= r.Attempt {
			return
		}
		offset := d.Offset // rewind to the checkpoint's offset
		if !s.Replayable {
			offset = max(offset, r.Offset) // what was emitted cannot be read again
		}
		r.Attempt, r.Offset, r.Emitting = int64(d.Attempt), offset, 0
		ctx.Put(fsState, fsRowRun, 0, r.encode())
		s.maybeStart(ctx, r)
	case MsgSubscribe:
		if sub := decodeSubscribe(m); sub.Attempt > r.Subscribed {
			r.Subscribed = sub.Attempt
			ctx.Put(fsState, fsRowRun, 0, r.encode())
		}
		s.maybeStart(ctx, r)
	case MsgTrigger:
		t := decodeCheckpointMsg(m)
		last, _ := ctx.Get(fsState, fsRowLast, 0)
		if int64(t.Attempt) != r.Attempt || r.Emitting == 0 || t.Checkpoint <= last.Value {
			// Not running this attempt, or a late trigger subsumed by a
			// newer checkpoint: declined. Barriers go out in checkpoint order.
			return
		}
		ctx.Put(fsState, fsRowLast, 0, sim.Record{Value: t.Checkpoint})
		ctx.Send(s.JobManager, ack{Checkpoint: t.Checkpoint, Attempt: t.Attempt, Position: int32(r.Offset)}.encode())
		ctx.Send(s.Sink, t.encode(MsgBarrier))
	}
}

// Timer emits the next record of the current attempt.
func (s *Source) Timer(ctx *sim.Context, t sim.Timer) {
	r := s.state(ctx)
	if t.Kind != TimerEmit || int64(t.Attempt) != r.Attempt || r.Offset >= int64(ctx.Ops()) {
		return
	}
	r.Offset++
	ctx.Put(fsState, fsRowRun, 0, r.encode())
	ctx.Send(s.Sink, streamRecord{Op: sim.OpID(r.Offset), Attempt: t.Attempt, Offset: r.Offset}.encode())
	ctx.After(s.Interval, sim.Timer{Kind: TimerEmit, Attempt: t.Attempt})
}

// buildSource builds a flink-source node from its options, each declared where it is read.
func buildSource(a *roles.Args) (sim.Node, []sim.TableSpec) {
	s := &Source{
		JobManager: jobManager(a),
		Sink:       a.Node("sink", "where the stream goes"),
		Interval:   a.PositiveDuration("interval", "50ms", "time between two records"),
		Replayable: a.Enum("replay", "replayable", []string{"replayable", "none"}, "a replayable source rewinds to the restored checkpoint's offset; one without replay goes on from where it was") == "replayable",
	}
	return s, flinkSourceTables()
}

// jobManager reads the option the family's tasks share.
func jobManager(a *roles.Args) sim.NodeID {
	return a.Node("jobmanager", "the checkpoint coordinator")
}
