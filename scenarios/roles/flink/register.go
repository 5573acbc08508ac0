package flink

import "github.com/oncesim/once/scenarios/roles"

// Register adds the flink family to c (scenarios.Families).
// Its roles send the kafka family's kinds: a catalog of it holds kafka.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	registerJobmanager(c)
	registerLatency(c)
	registerOperatorstate(c)
	registerSink(c)
	registerSource(c)
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
