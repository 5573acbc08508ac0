package flink

import "github.com/oncesim/once/scenarios/roles"

// Register adds the flink family's kinds, roles, invariants and metrics to
// c. scenarios.RegisterFamilies calls it, in a fixed order with the
// other families; a test may call it on a catalog of its own.
// Its roles send the kafka family's kinds: register kafka in c first.
func Register(c *roles.Catalog) {
	c.NumberKinds(numberKinds)
	registerJobmanager(c)
	registerLatency(c)
	registerOperatorstate(c)
	registerSink(c)
	registerSource(c)
}

// numberKinds registers the family's message, timer, sink and crash-point
// names in n, in this fixed order, and sets the variables role code names
// them by (roles.KindNames says why). A new kind is declared beside the
// code that uses it and numbered here.
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
