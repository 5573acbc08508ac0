package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// FlinkJobManager is the checkpoint coordinator. Every Interval it
// triggers a checkpoint at the source; a checkpoint completes when both the
// source (its offset) and the sink (its pre-committed transactions) have
// acknowledged it, and only then — after the completed checkpoint is stored
// durably — is the sink told checkpoint-complete, its cue to commit.
//
// When the sink's task manager comes back after a crash (a register with a
// new boot count), the job manager fails the whole job over: a new attempt
// number, and every task is redeployed from the latest completed
// checkpoint — the source rewinds to that checkpoint's offset, the sink
// gets that checkpoint's pending transactions to commit.
//
// It stops triggering once a completed checkpoint covers the whole input
// and the sink has confirmed committing it, so a run ends.
type FlinkJobManager struct {
	Source   sim.NodeID
	Sink     sim.NodeID
	Interval sim.Time
}

const (
	fjJob         sim.TableID = iota // row 1: {State: job state, Value: attempt, Aux: next checkpoint id, Status: latest completed}; row 2: {Value: sink boots seen, Aux: committed up to}
	fjCheckpoints                    // checkpoint id → {State, Status: attempt, Value: source offset, Aux: sink's pending transactions}
)

// Job states.
const (
	jobCreated int32 = iota + 1
	jobRunning
	jobFinished
)

// Checkpoint states.
const (
	ckptPending int32 = iota + 1
	ckptSourceAcked
	ckptSinkAcked
	ckptCompleted
)

const (
	fjRowJob  int64 = 1
	fjRowSink int64 = 2
)

func flinkJobManagerTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "job", Durable: true},
		{Name: "checkpoints", Durable: true, Traced: true, States: []string{"", "PENDING", "SOURCE-ACKED", "SINK-ACKED", "COMPLETED"}},
	}
}

func packRange(lo, hi int64) int64 { return lo*1_000_000 + hi }

func unpackRange(v int64) (int64, int64) { return v / 1_000_000, v % 1_000_000 }

// Start creates the job and its empty checkpoint 0, and starts the
// checkpoint clock.
func (j *FlinkJobManager) Start(ctx *sim.Context) {
	if _, ok := ctx.Get(fjJob, fjRowJob, 0); !ok {
		ctx.Put(fjJob, fjRowJob, 0, sim.Record{State: jobCreated, Aux: 1})
		ctx.Put(fjCheckpoints, 0, 0, sim.Record{State: ckptCompleted})
	}
	ctx.After(j.Interval, sim.Timer{Kind: TimerFlinkCheckpoint})
}

// Timer triggers the next checkpoint.
func (j *FlinkJobManager) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerFlinkCheckpoint {
		return
	}
	job, _ := ctx.Get(fjJob, fjRowJob, 0)
	if job.State == jobFinished {
		return
	}
	if job.State == jobRunning {
		n := job.Aux
		job.Aux++
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job)
		ctx.Put(fjCheckpoints, n, 0, sim.Record{State: ckptPending, Status: int32(job.Value)})
		ctx.Send(j.Source, sim.Message{Kind: MsgFlinkTrigger, Key: n, Attempt: int32(job.Value)})
	}
	ctx.After(j.Interval, sim.Timer{Kind: TimerFlinkCheckpoint})
}

// Receive handles registrations, acknowledgements and commit confirmations.
func (j *FlinkJobManager) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgFlinkRegister:
		j.register(ctx, m)
	case MsgFlinkAck:
		j.ack(ctx, m)
	case MsgFlinkCommitted:
		sink, _ := ctx.Get(fjJob, fjRowSink, 0)
		if m.Key > sink.Aux {
			sink.Aux = m.Key
			sink.At = 0
			ctx.Put(fjJob, fjRowSink, 0, sink)
		}
		j.checkFinished(ctx)
	}
}

func (j *FlinkJobManager) register(ctx *sim.Context, m sim.Message) {
	sink, _ := ctx.Get(fjJob, fjRowSink, 0)
	job, _ := ctx.Get(fjJob, fjRowJob, 0)
	switch {
	case m.Key < sink.Value:
		return // a late copy of an older registration
	case m.Key == sink.Value:
		if job.Value > 0 {
			j.deploySink(ctx, job) // its deployment was lost or is late: send it again
		}
		return
	}
	sink.Value = m.Key
	sink.At = 0
	ctx.Put(fjJob, fjRowSink, 0, sink)
	// Fail over: a new attempt, every task restarts from the latest
	// completed checkpoint.
	job.Value++
	if job.State != jobFinished {
		job.State = jobRunning
	}
	job.At = 0
	ctx.Put(fjJob, fjRowJob, 0, job)
	ck, _ := ctx.Get(fjCheckpoints, int64(job.Status), 0)
	ctx.Send(j.Source, sim.Message{Kind: MsgFlinkDeploy, Attempt: int32(job.Value), Key: ck.Value, Payload: int64(job.Status)})
	j.deploySink(ctx, job)
}

// deploySink deploys the current attempt to the sink's current task
// manager: the deployment names the boot it is for, so a late one never
// lands on a later incarnation.
func (j *FlinkJobManager) deploySink(ctx *sim.Context, job sim.Record) {
	sink, _ := ctx.Get(fjJob, fjRowSink, 0)
	ck, _ := ctx.Get(fjCheckpoints, int64(job.Status), 0)
	lo, hi := unpackRange(ck.Aux)
	ctx.Send(j.Sink, sim.Message{Kind: MsgFlinkDeploy, Attempt: int32(job.Value), Key: lo, Value: hi, Payload: int64(job.Status), Status: int32(sink.Value)})
}

func (j *FlinkJobManager) ack(ctx *sim.Context, m sim.Message) {
	job, _ := ctx.Get(fjJob, fjRowJob, 0)
	ck, ok := ctx.Get(fjCheckpoints, m.Key, 0)
	if !ok || ck.Status != m.Attempt || int64(m.Attempt) != job.Value || ck.State == ckptCompleted {
		// Unknown, already complete, or of an attempt that was failed
		// over: its transactions may be aborted already.
		return
	}
	fromSource := m.From == j.Source
	switch {
	case fromSource && ck.State == ckptPending:
		ck.State = ckptSourceAcked
	case fromSource && ck.State == ckptSinkAcked:
		ck.State = ckptCompleted
	case !fromSource && ck.State == ckptPending:
		ck.State = ckptSinkAcked
	case !fromSource && ck.State == ckptSourceAcked:
		ck.State = ckptCompleted
	default:
		return // a copy of an acknowledgement already counted
	}
	if fromSource {
		ck.Value = m.Value
	} else {
		ck.Aux = packRange(m.Payload, m.Value)
	}
	ck.At = 0
	ctx.Put(fjCheckpoints, m.Key, 0, ck)
	if ck.State != ckptCompleted {
		return
	}
	// The completed checkpoint is stored; now the sink may commit.
	if m.Key > int64(job.Status) {
		job.Status = int32(m.Key)
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job)
	}
	ctx.Send(j.Sink, sim.Message{Kind: MsgFlinkComplete, Key: m.Key, Attempt: m.Attempt})
	j.checkFinished(ctx)
}

// checkFinished ends the job once the latest completed checkpoint covers
// every input record and the sink confirmed committing it.
func (j *FlinkJobManager) checkFinished(ctx *sim.Context) {
	job, _ := ctx.Get(fjJob, fjRowJob, 0)
	sink, _ := ctx.Get(fjJob, fjRowSink, 0)
	ck, _ := ctx.Get(fjCheckpoints, int64(job.Status), 0)
	if job.State == jobRunning && ck.Value >= int64(ctx.Ops()) && sink.Aux >= int64(job.Status) {
		job.State = jobFinished
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job)
	}
}

var (
	flinkJobmanagerSource   = roles.Node("source", "the source task")
	flinkJobmanagerSink     = roles.Node("sink", "the sink task")
	flinkJobmanagerInterval = roles.PositiveDuration("interval", "200ms", "checkpoint interval")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "flink-jobmanager",
		Doc:     "checkpoint coordinator: triggers checkpoints, completes them when every task acknowledged, notifies the sink, fails the job over to the latest completed checkpoint",
		Options: []roles.Option{flinkJobmanagerSource, flinkJobmanagerSink, flinkJobmanagerInterval},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			j := &FlinkJobManager{Source: flinkJobmanagerSource.Get(a), Sink: flinkJobmanagerSink.Get(a), Interval: flinkJobmanagerInterval.Get(a)}
			return j, flinkJobManagerTables()
		},
	})
}
