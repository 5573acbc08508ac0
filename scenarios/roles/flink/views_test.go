package flink

import (
	"testing"

	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// Every field of every view ranges over its whole Go type: each maps to a
// slot at least as wide, so rapid.Make draws from the documented range.

func messageRoundTrip[V comparable](t *testing.T, kind sim.MsgKind, enc func(V) sim.Message, dec func(sim.Message) V) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Make[V]().Draw(t, "view")
		m := enc(v)
		if m.Kind != kind {
			t.Fatalf("encode(%+v).Kind = %d, want %d", v, m.Kind, kind)
		}
		if got := dec(m); got != v {
			t.Fatalf("decode(encode(%+v)) = %+v", v, got)
		}
	})
}

func rowRoundTrip[V comparable](t *testing.T, enc func(V) sim.Record, dec func(sim.Record) V) {
	t.Helper()
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Make[V]().Draw(t, "row")
		if got := dec(enc(v)); got != v {
			t.Fatalf("decode(encode(%+v)) = %+v", v, got)
		}
	})
}

func checkpointKind(kind sim.MsgKind) func(checkpointMsg) sim.Message {
	return func(c checkpointMsg) sim.Message { return c.encode(kind) }
}

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("deploy", func(t *testing.T) { messageRoundTrip(t, MsgDeploy, deploy.encode, decodeDeploy) })
	t.Run("register", func(t *testing.T) { messageRoundTrip(t, MsgRegister, register.encode, decodeRegister) })
	for _, kind := range []sim.MsgKind{MsgTrigger, MsgBarrier, MsgComplete, MsgCommitted} {
		t.Run("checkpoint", func(t *testing.T) { messageRoundTrip(t, kind, checkpointKind(kind), decodeCheckpointMsg) })
	}
	t.Run("stream-record", func(t *testing.T) { messageRoundTrip(t, MsgRecord, streamRecord.encode, decodeStreamRecord) })
	t.Run("partition-request", func(t *testing.T) { messageRoundTrip(t, MsgSubscribe, subscribe.encode, decodeSubscribe) })
	t.Run("checkpoint-ack", func(t *testing.T) { messageRoundTrip(t, MsgAck, ack.encode, decodeAck) })
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("job", func(t *testing.T) { rowRoundTrip(t, jobRow.encode, decodeJobRow) })
	t.Run("sink-seen", func(t *testing.T) { rowRoundTrip(t, sinkSeenRow.encode, decodeSinkSeenRow) })
	t.Run("checkpoints", func(t *testing.T) { rowRoundTrip(t, checkpointRow.encode, decodeCheckpointRow) })
	t.Run("checkpoint-txns", func(t *testing.T) { rowRoundTrip(t, checkpointTxnsRow.encode, decodeCheckpointTxnsRow) })
	t.Run("sink", func(t *testing.T) { rowRoundTrip(t, sinkRow.encode, decodeSinkRow) })
	t.Run("pending-txns", func(t *testing.T) { rowRoundTrip(t, pendingTxnRow.encode, decodePendingTxnRow) })
	t.Run("source", func(t *testing.T) { rowRoundTrip(t, sourceRow.encode, decodeSourceRow) })
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
