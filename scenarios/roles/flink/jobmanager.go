package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// JobManager is the checkpoint coordinator. Every Interval it
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
type JobManager struct {
	Source   sim.NodeID
	Sink     sim.NodeID
	Interval sim.Time
}

const (
	fjJob         sim.TableID = iota // row fjRowJob: a jobRow; row fjRowSink: a sinkSeenRow
	fjCheckpoints                    // checkpoint id → a checkpointRow
	fjCkptTxns                       // checkpoint id → a checkpointTxnsRow (the sink's snapshot)
)

// Job states.
const (
	jobCreated int32 = iota + 1
	jobRunning
	jobFinished
	jobFailed // a task rethrew a failed commit: no more checkpoints, no restart
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
		{Name: "checkpoint-txns", Durable: true},
	}
}

func (j *JobManager) job(ctx *sim.Context) jobRow {
	r, _ := ctx.Get(fjJob, fjRowJob, 0)
	return decodeJobRow(r)
}

func (j *JobManager) sinkSeen(ctx *sim.Context) sinkSeenRow {
	r, _ := ctx.Get(fjJob, fjRowSink, 0)
	return decodeSinkSeenRow(r)
}

func (j *JobManager) checkpoint(ctx *sim.Context, id int64) (checkpointRow, bool) {
	r, ok := ctx.Get(fjCheckpoints, id, 0)
	return decodeCheckpointRow(r), ok
}

// Start creates the job and its empty checkpoint 0, and starts the
// checkpoint clock.
func (j *JobManager) Start(ctx *sim.Context) {
	if _, ok := ctx.Get(fjJob, fjRowJob, 0); !ok {
		ctx.Put(fjJob, fjRowJob, 0, jobRow{State: jobCreated, NextCheckpoint: 1}.encode())
		ctx.Put(fjCheckpoints, 0, 0, checkpointRow{State: ckptCompleted}.encode())
	}
	ctx.After(j.Interval, sim.Timer{Kind: TimerCheckpoint})
}

// Timer triggers the next checkpoint.
func (j *JobManager) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerCheckpoint {
		return
	}
	job := j.job(ctx)
	if job.State == jobFinished || job.State == jobFailed {
		return
	}
	if job.State == jobRunning {
		n := job.NextCheckpoint
		job.NextCheckpoint++
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job.encode())
		ctx.Put(fjCheckpoints, n, 0, checkpointRow{State: ckptPending, Attempt: int32(job.Attempt)}.encode())
		ctx.Send(j.Source, checkpointMsg{Checkpoint: n, Attempt: int32(job.Attempt)}.encode(MsgTrigger))
	}
	ctx.After(j.Interval, sim.Timer{Kind: TimerCheckpoint})
}

// Receive handles registrations, acknowledgements and commit confirmations.
func (j *JobManager) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgRegister:
		j.register(ctx, decodeRegister(m))
	case MsgAck:
		j.ack(ctx, m.From == j.Source, decodeAck(m))
	case MsgJobFailed:
		job := j.job(ctx)
		job.State, job.At = jobFailed, 0
		ctx.Put(fjJob, fjRowJob, 0, job.encode())
	case MsgCommitted:
		c := decodeCheckpointMsg(m)
		sink := j.sinkSeen(ctx)
		if c.Checkpoint > sink.Committed {
			sink.Committed = c.Checkpoint
			sink.At = 0
			ctx.Put(fjJob, fjRowSink, 0, sink.encode())
		}
		j.checkFinished(ctx)
	}
}

func (j *JobManager) register(ctx *sim.Context, r register) {
	sink := j.sinkSeen(ctx)
	job := j.job(ctx)
	switch {
	case r.Boot < sink.Boot:
		return // a late copy of an older registration
	case r.Boot == sink.Boot:
		if job.Attempt > 0 {
			j.deploySink(ctx, job) // its deployment was lost or is late: send it again
		}
		return
	}
	sink.Boot = r.Boot
	sink.At = 0
	ctx.Put(fjJob, fjRowSink, 0, sink.encode())
	// Fail over: a new attempt, every task restarts from the latest
	// completed checkpoint.
	job.Attempt++
	if job.State == jobFailed {
		return
	}
	if job.State != jobFinished {
		job.State = jobRunning
	}
	job.At = 0
	ctx.Put(fjJob, fjRowJob, 0, job.encode())
	ck, _ := j.checkpoint(ctx, int64(job.Completed))
	ctx.Send(j.Source, deploy{Attempt: int32(job.Attempt), Offset: ck.Offset}.encode())
	j.deploySink(ctx, job)
}

// deploySink deploys the current attempt to the sink's current task
// manager: the deployment names the boot it is for, so a late one never
// lands on a later incarnation.
func (j *JobManager) deploySink(ctx *sim.Context, job jobRow) {
	sink := j.sinkSeen(ctx)
	r, _ := ctx.Get(fjCkptTxns, int64(job.Completed), 0)
	txns := decodeCheckpointTxnsRow(r)
	ctx.Send(j.Sink, deploy{Attempt: int32(job.Attempt), Offset: int64(txns.State), FirstTxn: txns.FirstTxn, LastTxn: txns.LastTxn, Boot: int32(sink.Boot)}.encode())
}

func (j *JobManager) ack(ctx *sim.Context, fromSource bool, a ack) {
	job := j.job(ctx)
	ck, ok := j.checkpoint(ctx, a.Checkpoint)
	if !ok || ck.Attempt != a.Attempt || int64(a.Attempt) != job.Attempt || ck.State == ckptCompleted {
		// Unknown, already complete, or of an attempt that was failed
		// over: its transactions may be aborted already.
		return
	}
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
		ck.Offset = int64(a.Position)
	} else {
		ctx.Put(fjCkptTxns, a.Checkpoint, 0, checkpointTxnsRow{FirstTxn: a.FirstTxn, LastTxn: a.LastTxn, State: a.Position}.encode())
	}
	ck.At = 0
	ctx.Put(fjCheckpoints, a.Checkpoint, 0, ck.encode())
	if ck.State != ckptCompleted {
		return
	}
	// The completed checkpoint is stored; now the sink may commit.
	if a.Checkpoint > int64(job.Completed) {
		job.Completed = int32(a.Checkpoint)
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job.encode())
	}
	ctx.Send(j.Sink, checkpointMsg{Checkpoint: a.Checkpoint, Attempt: a.Attempt}.encode(MsgComplete))
	j.checkFinished(ctx)
}

// checkFinished ends the job once the latest completed checkpoint covers
// every input record and the sink confirmed committing it.
func (j *JobManager) checkFinished(ctx *sim.Context) {
	job := j.job(ctx)
	sink := j.sinkSeen(ctx)
	ck, _ := j.checkpoint(ctx, int64(job.Completed))
	if job.State == jobRunning && ck.Offset >= int64(ctx.Ops()) && sink.Committed >= int64(job.Completed) {
		job.State = jobFinished
		job.At = 0
		ctx.Put(fjJob, fjRowJob, 0, job.encode())
	}
}

// buildJobmanager builds a flink-jobmanager node from its options, each declared where it is read.
func buildJobmanager(a *roles.Args) (sim.Node, []sim.TableSpec) {
	j := &JobManager{
		Source:   a.Node("source", "the source task"),
		Sink:     a.Node("sink", "the sink task"),
		Interval: a.PositiveDuration("interval", "200ms", "checkpoint interval"),
	}
	return j, flinkJobManagerTables()
}
