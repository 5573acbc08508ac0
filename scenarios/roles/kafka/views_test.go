package kafka

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
)

// Every field of every view ranges over its whole Go type: each maps to a
// slot at least as wide, so rapid.Make draws from the documented range.

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("fetch", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgFetch, fetch.encode, decodeFetch) })
	t.Run("record", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgRecord, record.encode, decodeRecord) })
	t.Run("produce", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgProduce, produce.encode, decodeProduce) })
	t.Run("produce-ack", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgProduceAck, produceAck.encode, decodeProduceAck) })
	t.Run("init-producer-id", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgInitPID, initPID.encode, decodeInitPID) })
	t.Run("producer-id", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgProducerID, producerID.encode, decodeProducerID) })
	t.Run("add-partitions", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgAddParts, addParts.encode, decodeAddParts) })
	t.Run("add-partitions-ok", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgAddPartsOK, addPartsOK.encode, decodeAddPartsOK) })
	t.Run("txn-offset-commit", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgTxnOffsets, txnOffsets.encode, decodeTxnOffsets) })
	t.Run("offset-commit", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgOffsetCommit, offsetCommit.encode, decodeOffsetCommit)
	})
	t.Run("offset-commit-ack", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgOffsetAck, offsetAck.encode, decodeOffsetAck) })
	t.Run("offset-fetch", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgOffsetFetch, offsetFetch.encode, decodeOffsetFetch) })
	t.Run("offsets", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgOffsets, offsets.encode, decodeOffsets) })
	t.Run("end-txn", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgEndTxn, endTxn.encode, decodeEndTxn) })
	t.Run("end-txn-result", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgEndTxnResult, endTxnResult.encode, decodeEndTxnResult)
	})
	t.Run("write-markers", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgMarkers, func(w markers) sim.Message { return w.encode(MsgMarkers) }, decodeMarkers)
	})
	t.Run("markers-written", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgMarkersDone, func(w markers) sim.Message { return w.encode(MsgMarkersDone) }, decodeMarkers)
	})
	t.Run("db-write", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgDBWrite, DBWrite.Encode, DecodeDBWrite) })
	t.Run("db-write-ack", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgDBWriteAck, DBWriteAck.Encode, DecodeDBWriteAck) })
	t.Run("db-prepare", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgDBPrepare, func(p DBPrepare) sim.Message { return p.Encode(MsgDBPrepare) }, DecodeDBPrepare)
	})
	t.Run("db-prepared", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgDBPrepared, func(p DBPrepare) sim.Message { return p.Encode(MsgDBPrepared) }, DecodeDBPrepare)
	})
	t.Run("db-commit", func(t *testing.T) { viewtest.KindRoundTrip(t, MsgDBCommit, DBCommit.Encode, DecodeDBCommit) })
	t.Run("db-commit-failed", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgDBCommitFailed, DBCommit.EncodeFailed, DecodeDBCommit)
	})
	t.Run("db-abort-lingering", func(t *testing.T) {
		viewtest.KindRoundTrip(t, MsgDBAbortLingering, DBAbortLingering.Encode, DecodeDBAbortLingering)
	})
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("log", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, logRow.encode, decodeLogRow) })
	t.Run("producers", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, producerRow.encode, decodeProducerRow) })
	t.Run("pending-offsets", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, pendingRow.encode, decodePendingRow) })
	t.Run("parked-fetches", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, parkedRow.encode, decodeParkedRow) })
	t.Run("group-offsets", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, groupRow.encode, decodeGroupRow) })
	t.Run("txn-log", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, txnLogRow.encode, decodeTxnLogRow) })
	t.Run("owed-replies", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, replyRow.encode, decodeReplyRow) })
	t.Run("run", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, runRow.encode, decodeRunRow) })
	t.Run("client", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, clientRow.encode, decodeClientRow) })
	t.Run("current", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, currentRow.encode, decodeCurrentRow) })
	t.Run("pending-rows", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, dbPendingRow.encode, decodeDBPendingRow) })
	t.Run("transactions", func(t *testing.T) { viewtest.RowRoundTrip(t, viewtest.Any, dbTxnRow.encode, decodeDBTxnRow) })
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
