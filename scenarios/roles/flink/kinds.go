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
// Field conventions:
//
//	deploy             source: Key offset to restore; sink: Key/Value first/last pending transaction to commit, Status the boot it is for; Payload checkpoint id
//	register           Key the sink's boot count
//	trigger-checkpoint Key checkpoint id
//	barrier            Key checkpoint id
//	stream-record      Op the record, Key its offset in the source
//	checkpoint-ack     Key checkpoint id; source: Value offset; sink: Payload/Value first/last pending transaction
//	checkpoint-complete, committed   Key checkpoint id
//	db-prepare, db-prepared, db-commit   Key transaction id (attempt·1000 + n)
//	db-abort-lingering Key the new attempt: abort every open transaction of an older one
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
