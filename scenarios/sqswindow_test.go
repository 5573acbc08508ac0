package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TestSQSFifoDedupWindowProofs: the FIFO queue catches a relay's resend
// only inside its 5-minute interval; the consumer's dedup by order id
// catches it after. Each case is a claim of docs/scenarios.md.
func TestSQSFifoDedupWindowProofs(t *testing.T) {
	for _, c := range []struct {
		sem    sim.Semantics
		kinds  string
		params map[string]string
		holds  bool
	}{
		{sim.AtLeastOnce, "crash", map[string]string{"downtime": "30s"}, true}, // the resend inside the interval: accepted, not delivered
		{sim.AtLeastOnce, "crash", nil, false},                                 // 6 min down: a true duplicate
		{sim.Idempotent, "loss,ack-loss,crash", nil, true},                     // order-id + the consumer's dedup
		{sim.Idempotent, "loss,ack-loss,crash", map[string]string{"dedup-id": "content"}, false},
	} {
		_, res := exploreVerdict(t, "sqs-fifo-dedup-window", c.sem, c.kinds, 2, c.params)
		if res.Holds != c.holds {
			t.Errorf("%s %v, %s ≤2: holds=%v, want %v (%s)", c.sem.Alias(), c.params, c.kinds, res.Holds, c.holds, res.Why)
		}
	}
}

// TestSQSContentDedupCollapsesOneBasket: with content-based deduplication
// and no fault at all, the second order of a basket (same body) is
// answered 200 with the first order's message and never billed — a loss
// no consumer can dedup; with the order id as MessageDeduplicationId both
// are billed once.
func TestSQSContentDedupCollapsesOneBasket(t *testing.T) {
	cfg := scenarioExploreConfig(t, "sqs-fifo-dedup-window", sim.Idempotent, "loss", map[string]string{"dedup-id": "content"})
	events, out := replayChoices(t, cfg, nil)
	acks := sendsOf(t, cfg, events, "queue", "publish-ack")
	offsets := map[sim.OpID]int64{}
	for _, s := range acks {
		if s.msg.Status != roles.StatusOK {
			t.Errorf("publish-ack op-%d status %d", s.msg.Op, s.msg.Status)
		}
		offsets[s.msg.Op] = s.msg.Key
	}
	if offsets[1] == 0 || offsets[2] != offsets[1] {
		t.Errorf("basket of orders 1 and 2: acked at offsets %d and %d, want one message", offsets[1], offsets[2])
	}
	if got := effectsPerOp(out); got[1] != 1 || got[2] != 0 {
		t.Errorf("content-based: billed %v, want op-1 once and op-2 never", got)
	}
	cfg = scenarioExploreConfig(t, "sqs-fifo-dedup-window", sim.Idempotent, "loss", nil)
	if _, out := replayChoices(t, cfg, nil); effectsPerOp(out)[2] != 1 {
		t.Errorf("order-id: op-2 billed %d times, want once", effectsPerOp(out)[2])
	}
}
