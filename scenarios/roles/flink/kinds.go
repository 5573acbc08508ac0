// Package flink is the Flink family: a job manager (the checkpoint
// coordinator), a replayable source, and a sink that writes the external
// database of package kafka either plainly or with two-phase commit.
package flink

import "github.com/oncesim/once/scenarios/roles"

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
	MsgFlinkDeploy       = roles.Message("deploy")              // job manager → task: (re)start from a checkpoint
	MsgFlinkRegister     = roles.Message("register")            // sink → job manager: a task manager (re)started
	MsgFlinkTrigger      = roles.Message("trigger-checkpoint")  // job manager → source
	MsgFlinkBarrier      = roles.Message("barrier")             // source → sink, in the stream, after the records before the checkpoint
	MsgFlinkRecord       = roles.Message("stream-record")       // source → sink
	MsgFlinkSubscribe    = roles.Message("partition-request")   // sink → source: ready for the stream of this attempt
	MsgFlinkAck          = roles.Message("checkpoint-ack")      // task → job manager: my snapshot for checkpoint n
	MsgFlinkComplete     = roles.Message("checkpoint-complete") // job manager → sink: notifyCheckpointComplete(n)
	MsgFlinkCommitted    = roles.Message("committed")           // sink → job manager: everything up to n is committed
	TimerFlinkCheckpoint = roles.Timer("checkpoint-interval")   // the job manager triggers a checkpoint
	TimerFlinkEmit       = roles.Timer("emit")                  // the source emits its next record
	TimerFlinkRegister   = roles.Timer("register-retry")        // the sink repeats its registration

	PointFlinkAfterWrite     = roles.Point("after-sink-write") // a record written (plain: committed; 2PC: in the open transaction)
	PointFlinkAfterPreCommit = roles.Point("after-pre-commit") // pre-committed and acknowledged the checkpoint; commit not yet notified
)
