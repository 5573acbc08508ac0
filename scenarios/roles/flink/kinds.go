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
	MsgDeploy       = roles.Message("deploy")              // job manager → task: (re)start from a checkpoint
	MsgRegister     = roles.Message("register")            // sink → job manager: a task manager (re)started
	MsgTrigger      = roles.Message("trigger-checkpoint")  // job manager → source
	MsgBarrier      = roles.Message("barrier")             // source → sink, in the stream, after the records before the checkpoint
	MsgRecord       = roles.Message("stream-record")       // source → sink
	MsgSubscribe    = roles.Message("partition-request")   // sink → source: ready for the stream of this attempt
	MsgAck          = roles.Message("checkpoint-ack")      // task → job manager: my snapshot for checkpoint n
	MsgComplete     = roles.Message("checkpoint-complete") // job manager → sink: notifyCheckpointComplete(n)
	MsgCommitted    = roles.Message("committed")           // sink → job manager: everything up to n is committed
	MsgJobFailed    = roles.Message("job-failed")          // sink → job manager: a rethrown failed commit fails the job (registered last: no digest moves)
	TimerCheckpoint = roles.Timer("checkpoint-interval")   // the job manager triggers a checkpoint
	TimerEmit       = roles.Timer("emit")                  // the source emits its next record
	TimerRegister   = roles.Timer("register-retry")        // the sink repeats its registration

	PointAfterWrite     = roles.Point("after-sink-write") // a record written (plain: committed; 2PC: in the open transaction)
	PointAfterPreCommit = roles.Point("after-pre-commit") // pre-committed and acknowledged the checkpoint; commit not yet notified
)
