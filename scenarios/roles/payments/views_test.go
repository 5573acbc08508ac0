package payments

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
	anyKey   = rapid.Custom(func(t *rapid.T) idemKey { return idemKey(rapid.Int64().Draw(t, "key")) })
	anyBody  = rapid.Custom(func(t *rapid.T) fingerprint { return fingerprint(rapid.Int64().Draw(t, "body")) })
	anyOp    = rapid.Custom(func(t *rapid.T) sim.OpID { return sim.OpID(rapid.Int32().Draw(t, "op")) })
	anyInt32 = rapid.Int32()
	anyInt64 = rapid.Int64()
	anyTime  = rapid.Custom(func(t *rapid.T) sim.Time { return sim.Time(rapid.Int64().Draw(t, "at")) })
)

func TestMessageViewsRoundTrip(t *testing.T) {
	t.Run("httpRequest", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) httpRequest {
			return httpRequest{Key: anyKey.Draw(rt, "key"), Body: anyBody.Draw(rt, "body")}
		}, httpRequest.encode, decodeHTTPRequest)
	})
	t.Run("httpResponse", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) httpResponse {
			return httpResponse{Status: anyInt32.Draw(rt, "status"), Result: anyInt64.Draw(rt, "result"), IssuedKey: anyKey.Draw(rt, "issued")}
		}, httpResponse.encode, decodeHTTPResponse)
	})
	t.Run("providerCall", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) providerCall {
			return providerCall{Key: anyKey.Draw(rt, "key"), Body: anyBody.Draw(rt, "body"), Status: anyInt32.Draw(rt, "status"), TxnID: anyInt64.Draw(rt, "txn")}
		}, providerCall.encode, decodeProviderCall)
	})
	t.Run("outcomeReport", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) outcomeReport {
			return outcomeReport{Key: anyKey.Draw(rt, "key"), Body: anyBody.Draw(rt, "body"), Status: anyInt32.Draw(rt, "status"), TxnID: anyInt64.Draw(rt, "txn")}
		}, outcomeReport.encode, decodeOutcomeReport)
	})
	t.Run("ProviderCall", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) ProviderCall {
			return ProviderCall{Reference: anyInt64.Draw(rt, "ref"), Body: anyInt64.Draw(rt, "body"), Status: anyInt32.Draw(rt, "status"), TxnID: anyInt64.Draw(rt, "txn")}
		}, func(v ProviderCall, e envelope) sim.Message { return v.Encode(e.Kind, e.Op, e.Attempt) }, DecodeProviderCall)
	})
	t.Run("stepCall", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) stepCall {
			return stepCall{Key: anyKey.Draw(rt, "key"), Run: anyInt64.Draw(rt, "run"), Step: anyInt32.Draw(rt, "step"), RecordID: anyInt64.Draw(rt, "record")}
		}, stepCall.encode, decodeStepCall)
	})
}

// onto keeps everything the engine put on a delivered message.
func TestRequestOntoKeepsTheDeliveredMessage(t *testing.T) {
	m := sim.Message{ID: 9, From: 1, To: 2, Kind: 3, Op: 4, Attempt: 5, Key: 6, Payload: 7}
	got := httpRequest{Key: 60, Body: 70}.onto(m)
	want := m
	want.Key, want.Payload = 60, 70
	if got != want {
		t.Fatalf("onto = %+v, want %+v", got, want)
	}
}

func TestRowViewsRoundTrip(t *testing.T) {
	t.Run("keyRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) keyRow {
			v := keyRow{State: rapid.SampledFrom([]int32{roles.KeyProcessing, roles.KeyCompleted, intentUnknown}).Draw(rt, "state"),
				Body: anyBody.Draw(rt, "body"), At: anyTime.Draw(rt, "at")}
			if v.completed() {
				v.Status, v.Response = anyInt32.Draw(rt, "status"), anyInt64.Draw(rt, "response")
			} else {
				v.Op, v.Attempt = anyOp.Draw(rt, "op"), anyInt32.Draw(rt, "attempt")
			}
			return v
		}, keyRow.encode, decodeKeyRow)
	})
	t.Run("opRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) opRow {
			return opRow{State: rapid.SampledFrom([]int32{roles.OpPending, roles.OpDone}).Draw(rt, "state"), Attempt: anyInt32.Draw(rt, "attempt"), IssuedKey: anyKey.Draw(rt, "issued")}
		}, opRow.encode, decodeOpRow)
	})
	t.Run("chargeRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) chargeRow {
			return chargeRow{TxnID: anyInt64.Draw(rt, "txn"), Body: anyBody.Draw(rt, "body")}
		}, chargeRow.encode, decodeChargeRow)
	})
	t.Run("refRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) refRow { return refRow{Intent: anyKey.Draw(rt, "intent")} }, refRow.encode, decodeRefRow)
	})
	t.Run("counterRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) counterRow { return counterRow{Last: anyInt64.Draw(rt, "last")} }, counterRow.encode, decodeCounterRow)
	})
	t.Run("callsRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) callsRow {
			return callsRow{Calls: anyInt32.Draw(rt, "calls"), ClientAttempt: anyInt32.Draw(rt, "attempt")}
		}, callsRow.encode, decodeCallsRow)
	})
	t.Run("backlogRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) backlogRow {
			return backlogRow{Op: anyOp.Draw(rt, "op"), Body: anyBody.Draw(rt, "body"), At: anyTime.Draw(rt, "at")}
		}, backlogRow.encode, decodeBacklogRow)
	})
	t.Run("runRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) runRow {
			return runRow{Step: anyInt32.Draw(rt, "step"), Calls: anyInt32.Draw(rt, "calls"), Attempt: anyInt32.Draw(rt, "attempt"), Contract: anyInt64.Draw(rt, "contract")}
		}, runRow.encode, decodeRunRow)
	})
	t.Run("stepDoneRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) stepDoneRow { return stepDoneRow{RecordID: anyInt64.Draw(rt, "record")} }, stepDoneRow.encode, decodeStepDoneRow)
	})
	t.Run("pendingCallRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) pendingCallRow {
			return pendingCallRow{Caller: sim.NodeID(rapid.Uint8().Draw(rt, "caller"))}
		}, pendingCallRow.encode, decodePendingCallRow)
	})
	t.Run("windowRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) windowRow {
			return windowRow{Admitted: anyInt32.Draw(rt, "admitted"), Ends: anyTime.Draw(rt, "ends")}
		}, windowRow.encode, decodeWindowRow)
	})
}

// The views are value conversions: the engine's hot path copies messages
// by value, and a view must not add an allocation to it.
func TestViewsDoNotAllocate(t *testing.T) {
	m := sim.Message{Kind: 1, Op: 2, Attempt: 3, Key: 4, Payload: 5, Value: 6, Status: 7}
	r := sim.Record{State: roles.KeyCompleted, Status: 201, Value: 8821, Aux: 101}
	allocs := testing.AllocsPerRun(100, func() {
		m = decodeProviderCall(m).encode(envelope{Kind: m.Kind, Op: m.Op, Attempt: m.Attempt})
		m = decodeHTTPRequest(m).onto(m)
		m = decodeStepCall(m).encode(envelope{Kind: m.Kind, Op: m.Op, Attempt: m.Attempt})
		r = decodeKeyRow(r).encode()
		r = decodeRunRow(r).encode()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per view round trip, want 0", allocs)
	}
}
