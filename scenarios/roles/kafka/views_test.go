package kafka

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

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("fetch", func(t *testing.T) { messageRoundTrip(t, MsgFetch, fetch.encode, decodeFetch) })
	t.Run("record", func(t *testing.T) { messageRoundTrip(t, MsgRecord, record.encode, decodeRecord) })
	t.Run("produce", func(t *testing.T) { messageRoundTrip(t, MsgProduce, produce.encode, decodeProduce) })
	t.Run("produce-ack", func(t *testing.T) { messageRoundTrip(t, MsgProduceAck, produceAck.encode, decodeProduceAck) })
	t.Run("init-producer-id", func(t *testing.T) { messageRoundTrip(t, MsgInitPID, initPID.encode, decodeInitPID) })
	t.Run("producer-id", func(t *testing.T) { messageRoundTrip(t, MsgProducerID, producerID.encode, decodeProducerID) })
	t.Run("add-partitions", func(t *testing.T) { messageRoundTrip(t, MsgAddParts, addParts.encode, decodeAddParts) })
	t.Run("add-partitions-ok", func(t *testing.T) { messageRoundTrip(t, MsgAddPartsOK, addPartsOK.encode, decodeAddPartsOK) })
	t.Run("txn-offset-commit", func(t *testing.T) { messageRoundTrip(t, MsgTxnOffsets, txnOffsets.encode, decodeTxnOffsets) })
	t.Run("offset-commit", func(t *testing.T) { messageRoundTrip(t, MsgOffsetCommit, offsetCommit.encode, decodeOffsetCommit) })
	t.Run("offset-commit-ack", func(t *testing.T) { messageRoundTrip(t, MsgOffsetAck, offsetAck.encode, decodeOffsetAck) })
	t.Run("offset-fetch", func(t *testing.T) { messageRoundTrip(t, MsgOffsetFetch, offsetFetch.encode, decodeOffsetFetch) })
	t.Run("offsets", func(t *testing.T) { messageRoundTrip(t, MsgOffsets, offsets.encode, decodeOffsets) })
	t.Run("end-txn", func(t *testing.T) { messageRoundTrip(t, MsgEndTxn, endTxn.encode, decodeEndTxn) })
	t.Run("end-txn-result", func(t *testing.T) { messageRoundTrip(t, MsgEndTxnResult, endTxnResult.encode, decodeEndTxnResult) })
	t.Run("write-markers", func(t *testing.T) {
		messageRoundTrip(t, MsgMarkers, func(w markers) sim.Message { return w.encode(MsgMarkers) }, decodeMarkers)
	})
	t.Run("markers-written", func(t *testing.T) {
		messageRoundTrip(t, MsgMarkersDone, func(w markers) sim.Message { return w.encode(MsgMarkersDone) }, decodeMarkers)
	})
	t.Run("db-write", func(t *testing.T) { messageRoundTrip(t, MsgDBWrite, DBWrite.Encode, DecodeDBWrite) })
	t.Run("db-write-ack", func(t *testing.T) { messageRoundTrip(t, MsgDBWriteAck, DBWriteAck.Encode, DecodeDBWriteAck) })
	t.Run("db-prepare", func(t *testing.T) {
		messageRoundTrip(t, MsgDBPrepare, func(p DBPrepare) sim.Message { return p.Encode(MsgDBPrepare) }, DecodeDBPrepare)
	})
	t.Run("db-prepared", func(t *testing.T) {
		messageRoundTrip(t, MsgDBPrepared, func(p DBPrepare) sim.Message { return p.Encode(MsgDBPrepared) }, DecodeDBPrepare)
	})
	t.Run("db-commit", func(t *testing.T) { messageRoundTrip(t, MsgDBCommit, DBCommit.Encode, DecodeDBCommit) })
	t.Run("db-abort-lingering", func(t *testing.T) {
		messageRoundTrip(t, MsgDBAbortLingering, DBAbortLingering.Encode, DecodeDBAbortLingering)
	})
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("log", func(t *testing.T) { rowRoundTrip(t, logRow.encode, decodeLogRow) })
	t.Run("producers", func(t *testing.T) { rowRoundTrip(t, producerRow.encode, decodeProducerRow) })
	t.Run("pending-offsets", func(t *testing.T) { rowRoundTrip(t, pendingRow.encode, decodePendingRow) })
	t.Run("parked-fetches", func(t *testing.T) { rowRoundTrip(t, parkedRow.encode, decodeParkedRow) })
	t.Run("group-offsets", func(t *testing.T) { rowRoundTrip(t, groupRow.encode, decodeGroupRow) })
	t.Run("txn-log", func(t *testing.T) { rowRoundTrip(t, txnLogRow.encode, decodeTxnLogRow) })
	t.Run("owed-replies", func(t *testing.T) { rowRoundTrip(t, replyRow.encode, decodeReplyRow) })
	t.Run("run", func(t *testing.T) { rowRoundTrip(t, runRow.encode, decodeRunRow) })
	t.Run("client", func(t *testing.T) { rowRoundTrip(t, clientRow.encode, decodeClientRow) })
	t.Run("current", func(t *testing.T) { rowRoundTrip(t, currentRow.encode, decodeCurrentRow) })
	t.Run("pending-rows", func(t *testing.T) { rowRoundTrip(t, dbPendingRow.encode, decodeDBPendingRow) })
	t.Run("transactions", func(t *testing.T) { rowRoundTrip(t, dbTxnRow.encode, decodeDBTxnRow) })
}

// TestViewsDoNotAllocate pins that a view is a value conversion: the
// engine copies messages by value on its hot path.
func TestViewsDoNotAllocate(t *testing.T) {
	p := produce{Op: 3, Attempt: 2, PID: 1001, Epoch: 4, Seq: 7}
	l := logRow{State: logOpen, Epoch: 4, Op: 3, PID: 1001}
	var sinkP produce
	var sinkL logRow
	allocs := testing.AllocsPerRun(100, func() {
		sinkP = decodeProduce(p.encode())
		sinkL = decodeLogRow(l.encode())
	})
	if allocs != 0 || sinkP != p || sinkL != l {
		t.Fatalf("a round trip allocated %v times (or changed the value: %+v, %+v)", allocs, sinkP, sinkL)
	}
}
