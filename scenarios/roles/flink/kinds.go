// Package flink is the Flink family: a job manager (the checkpoint
// coordinator), a replayable source, and a sink that writes the external
// database of package kafka either plainly or with two-phase commit.
package flink

import "github.com/oncesim/once/sim"

// Message kinds, timers and crash points of the Flink family: a job
// manager (the checkpoint coordinator), a replayable source, a sink that is
// either plain or two-phase-commit, and the external database it writes
// (see kafka.ExternalDB).
//
// Every control and data message carries the job attempt in Attempt: a
// failover starts a new attempt, and tasks drop whatever belongs to an
// older one.
//
// Each kind has a typed view in views.go (kafka's dbviews.go for the
// database's kinds) that names its fields and says which generic slot
// carries each; role code reads and writes messages only through those
// views.
var (
	MsgDeploy       sim.MsgKind   // job manager → task: (re)start from a checkpoint
	MsgRegister     sim.MsgKind   // sink → job manager: a task manager (re)started
	MsgTrigger      sim.MsgKind   // job manager → source
	MsgBarrier      sim.MsgKind   // source → sink, in the stream, after the records before the checkpoint
	MsgRecord       sim.MsgKind   // source → sink
	MsgSubscribe    sim.MsgKind   // sink → source: ready for the stream of this attempt
	MsgAck          sim.MsgKind   // task → job manager: my snapshot for checkpoint n
	MsgComplete     sim.MsgKind   // job manager → sink: notifyCheckpointComplete(n)
	MsgCommitted    sim.MsgKind   // sink → job manager: everything up to n is committed
	MsgJobFailed    sim.MsgKind   // sink → job manager: a rethrown failed commit fails the job (registered last: no digest moves)
	TimerCheckpoint sim.TimerKind // the job manager triggers a checkpoint
	TimerEmit       sim.TimerKind // the source emits its next record
	TimerRegister   sim.TimerKind // the sink repeats its registration

	PointAfterWrite     sim.PointID // a record written (plain: committed; 2PC: in the open transaction)
	PointAfterPreCommit sim.PointID // pre-committed and acknowledged the checkpoint; commit not yet notified
)
