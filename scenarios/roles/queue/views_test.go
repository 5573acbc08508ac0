package queue

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"github.com/oncesim/once/sim"
	"pgregory.net/rapid"
)

// Every view round-trips over its documented range, and a message keeps
// its envelope.

var (
	anyOp    = rapid.Custom(func(t *rapid.T) sim.OpID { return sim.OpID(rapid.Int32().Draw(t, "op")) })
	anyTime  = rapid.Custom(func(t *rapid.T) sim.Time { return sim.Time(rapid.Int64().Draw(t, "at")) })
	anyInt32 = rapid.Int32()
	anyInt64 = rapid.Int64()
)

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("publish", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) publish {
			return publish{Record: anyInt64.Draw(rt, "record"), ProducerID: anyInt64.Draw(rt, "pid"), Sequence: anyInt64.Draw(rt, "seq")}
		}, publish.encode, decodePublish)
	})
	t.Run("publishAck", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) publishAck {
			return publishAck{Offset: anyInt64.Draw(rt, "offset"), Sequence: anyInt64.Draw(rt, "seq"), Status: anyInt32.Draw(rt, "status")}
		}, publishAck.encode, decodePublishAck)
	})
	t.Run("delivery", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) delivery {
			return delivery{Offset: anyInt64.Draw(rt, "offset"), Record: anyInt64.Draw(rt, "record")}
		}, delivery.encode, decodeDelivery)
	})
	t.Run("offsetCommit", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) offsetCommit { return offsetCommit{Offset: anyInt64.Draw(rt, "offset")} }, offsetCommit.encode, decodeOffsetCommit)
	})
	t.Run("fetch", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) fetch { return fetch{Position: anyInt64.Draw(rt, "position")} }, fetch.encode, decodeFetch)
	})
	t.Run("hourEmitted", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) hourEmitted { return hourEmitted{Hour: anyInt64.Draw(rt, "hour")} }, hourEmitted.encode, decodeHourEmitted)
	})
	t.Run("fetched", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) fetched {
			return fetched{Position: anyInt64.Draw(rt, "position"), Status: anyInt32.Draw(rt, "status"), Record: anyInt64.Draw(rt, "record"), Hour: anyInt64.Draw(rt, "hour")}
		}, fetched.encode, decodeFetched)
	})
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("logRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) logRow {
			return logRow{Op: anyOp.Draw(rt, "op"), State: rapid.SampledFrom([]int32{recordUnacked, recordAcked}).Draw(rt, "state"),
				Deliveries: anyInt32.Draw(rt, "deliveries"), Committed: rapid.Bool().Draw(rt, "committed"), FirstCommit: anyTime.Draw(rt, "first")}
		}, logRow.encode, decodeLogRow)
	})
	t.Run("opRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) opRow {
			return opRow{State: rapid.SampledFrom([]int32{roles.OpPending, roles.OpDone}).Draw(rt, "state"), Attempt: anyInt32.Draw(rt, "attempt"), Sequence: anyInt64.Draw(rt, "seq")}
		}, opRow.encode, decodeOpRow)
	})
	t.Run("placedOrderRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) placedOrderRow { return placedOrderRow{Amount: anyInt64.Draw(rt, "amount")} }, placedOrderRow.encode, decodePlacedOrderRow)
	})
	t.Run("outboxRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) outboxRow {
			return outboxRow{Op: anyOp.Draw(rt, "op"), Record: anyInt64.Draw(rt, "record")}
		}, outboxRow.encode, decodeOutboxRow)
	})
	t.Run("attemptRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) attemptRow { return attemptRow{Attempt: anyInt32.Draw(rt, "attempt")} }, attemptRow.encode, decodeAttemptRow)
	})
	t.Run("positionRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) positionRow { return positionRow{Sequence: anyInt64.Draw(rt, "seq")} }, positionRow.encode, decodePositionRow)
	})
	t.Run("relayStateRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) relayStateRow {
			return relayStateRow{Phase: rapid.SampledFrom([]int32{relayIdle, relayFetching, relayPublishing}).Draw(rt, "phase"),
				Sequence: anyInt64.Draw(rt, "seq"), Op: anyOp.Draw(rt, "op")}
		}, relayStateRow.encode, decodeRelayStateRow)
	})
	t.Run("hourTotalRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) hourTotalRow {
			return hourTotalRow{Hour: anyInt32.Draw(rt, "hour"), Total: anyInt64.Draw(rt, "total"), Events: anyInt64.Draw(rt, "events")}
		}, hourTotalRow.encode, decodeHourTotalRow)
	})
	t.Run("jobRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) jobRow {
			return jobRow{Next: anyInt64.Draw(rt, "next"), Attempt: anyInt32.Draw(rt, "attempt"), Finished: rapid.Bool().Draw(rt, "finished")}
		}, jobRow.encode, decodeJobRow)
	})
	t.Run("openHourRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) openHourRow {
			return openHourRow{Total: anyInt64.Draw(rt, "total"), Events: anyInt32.Draw(rt, "events"), Written: anyInt64.Draw(rt, "written"), Emitted: rapid.Bool().Draw(rt, "emitted")}
		}, openHourRow.encode, decodeOpenHourRow)
	})
	t.Run("memberRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) memberRow {
			return memberRow{Hour: anyInt64.Draw(rt, "hour"), Written: rapid.Bool().Draw(rt, "written")}
		}, memberRow.encode, decodeMemberRow)
	})
	t.Run("balanceRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) balanceRow {
			return balanceRow{Total: anyInt64.Draw(rt, "total"), Version: anyInt64.Draw(rt, "version"), Payment: anyInt32.Draw(rt, "payment"), At: anyTime.Draw(rt, "at")}
		}, balanceRow.encode, decodeBalanceRow)
	})
}

// The views are value conversions: no allocation on the engine's hot path.
func TestViewsDoNotAllocate(t *testing.T) {
	m := sim.Message{Kind: 1, Op: 2, Attempt: 3, Key: 4, Payload: 5, Value: 6, Status: 7}
	r := sim.Record{State: recordAcked, Status: 1, Value: 8, Aux: 2, At: 9}
	allocs := testing.AllocsPerRun(100, func() {
		m = decodePublish(m).encode(envelope{Kind: m.Kind, Op: m.Op, Attempt: m.Attempt})
		m = decodeDelivery(m).encode(envelope{Kind: m.Kind, Op: m.Op, Attempt: m.Attempt})
		r = decodeLogRow(r).encode()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per view round trip, want 0", allocs)
	}
}
