package flink

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
)

// Every field of every view ranges over its whole Go type: each maps to a
// slot at least as wide, so rapid.Make draws from the documented range.

func checkpointKind(kind sim.MsgKind) func(checkpointMsg) sim.Message {
	return func(c checkpointMsg) sim.Message { return c.encode(kind) }
}

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("deploy", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgDeploy, deploy.encode, decodeDeploy) })
	t.Run("register", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgRegister, register.encode, decodeRegister) })
	for _, kind := range []sim.MsgKind{MsgTrigger, MsgBarrier, MsgComplete, MsgCommitted} {
		t.Run("checkpoint", func(t *testing.T) { viewtest.KindRoundTrip(t, kind, checkpointKind(kind), decodeCheckpointMsg) })
	}
	t.Run("stream-record", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgRecord, streamRecord.encode, decodeStreamRecord) })
	t.Run("partition-request", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgSubscribe, subscribe.encode, decodeSubscribe) })
	t.Run("checkpoint-ack", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgAck, ack.encode, decodeAck) })
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("job", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, jobRow.encode, decodeJobRow) })
	t.Run("sink-seen", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, sinkSeenRow.encode, decodeSinkSeenRow) })
	t.Run("checkpoints", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, checkpointRow.encode, decodeCheckpointRow) })
	t.Run("checkpoint-txns", func(t *testing.T) {
		viewtest.RowRoundTrip(t, viewtest.Any, checkpointTxnsRow.encode, decodeCheckpointTxnsRow)
	})
	t.Run("sink", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, sinkRow.encode, decodeSinkRow) })
	t.Run("pending-txns", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, pendingTxnRow.encode, decodePendingTxnRow) })
	t.Run("source", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, sourceRow.encode, decodeSourceRow) })
}

// TestViewsDoNotAllocate pins that a view is a value conversion.
func TestViewsDoNotAllocate(t *testing.T) {
	a := ack{Checkpoint: 4, Attempt: 2, FirstTxn: 2001, LastTxn: 2003}
	c := checkpointTxnsRow{FirstTxn: 2001, LastTxn: 2003}
	var gotA ack
	var gotC checkpointTxnsRow
	allocs := testing.AllocsPerRun(100, func() {
		gotA = decodeAck(a.encode())
		gotC = decodeCheckpointTxnsRow(c.encode())
	})
	if allocs != 0 || gotA != a || gotC != c {
		t.Fatalf("a round trip allocated %v times (or changed the value: %+v, %+v)", allocs, gotA, gotC)
	}
}
