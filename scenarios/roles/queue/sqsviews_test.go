package queue

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/viewtest"
	"pgregory.net/rapid"
)

func TestSQSViewsRoundTrip(t *testing.T) {
	t.Run("sendMessage", func(t *testing.T) {
		viewtest.MessageRoundTrip(t, func(rt *rapid.T) sendMessage {
			return sendMessage{Body: anyInt64.Draw(rt, "body"), DedupID: anyInt64.Draw(rt, "dedup-id")}
		}, sendMessage.encode, decodeSendMessage)
	})
	t.Run("fifoOutboxRow", func(t *testing.T) {
		viewtest.RowRoundTrip(t, func(rt *rapid.T) fifoOutboxRow {
			return fifoOutboxRow{State: rapid.SampledFrom([]int32{roles.OpPending, roles.OpDone}).Draw(rt, "state"), Attempt: anyInt32.Draw(rt, "attempt")}
		}, fifoOutboxRow.encode, decodeFifoOutboxRow)
	})
}

// Two orders of one basket have one body; the dedup id is the order's.
func TestFifoRelayBodies(t *testing.T) {
	r := &FifoRelay{Basket: 2}
	if r.body(1) != r.body(2) || r.body(2) == r.body(3) {
		t.Fatalf("basket 2: bodies %d %d %d, want orders 1 and 2 alike, 3 different", r.body(1), r.body(2), r.body(3))
	}
	r.Basket = 1
	if r.body(1) == r.body(2) {
		t.Fatalf("basket 1: orders 1 and 2 share body %d", r.body(1))
	}
}
