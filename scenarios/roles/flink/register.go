package flink

import "github.com/oncesim/once/scenarios/roles"

// Register adds the flink family to c (scenarios.Families).
// Its roles send the kafka family's kinds: a catalog of it holds kafka.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	c.Register(&roles.Role{Name: "flink-jobmanager", Doc: "checkpoint coordinator: triggers checkpoints, completes them when every task acknowledged, notifies the sink, fails the job over to the latest completed checkpoint", New: buildJobmanager})
	registerLatency(c)
	registerOperatorstate(c)
	c.Register(&roles.Role{Name: "flink-sink", Doc: "writes the stream to an external database: two-phase commit on checkpoints under txn, plain writes otherwise", New: buildSink})
	c.Register(&roles.Role{Name: "flink-source", Doc: "a source (record n is operation n), replayable or not: emits records, snapshots its offset and emits a barrier on each checkpoint", New: buildSource})
}

// numberKinds numbers the family's kinds in n, by file (roles.KindNames).
func numberKinds(n *roles.KindNames) {
	// kinds.go
	MsgDeploy = n.Message("deploy")
	MsgRegister = n.Message("register")
	MsgTrigger = n.Message("trigger-checkpoint")
	MsgBarrier = n.Message("barrier")
	MsgRecord = n.Message("stream-record")
	MsgSubscribe = n.Message("partition-request")
	MsgAck = n.Message("checkpoint-ack")
	MsgComplete = n.Message("checkpoint-complete")
	MsgCommitted = n.Message("committed")
	MsgJobFailed = n.Message("job-failed")
	TimerCheckpoint = n.Timer("checkpoint-interval")
	TimerEmit = n.Timer("emit")
	TimerRegister = n.Timer("register-retry")
	PointAfterWrite = n.Point("after-sink-write")
	PointAfterPreCommit = n.Point("after-pre-commit")
}
