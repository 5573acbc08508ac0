package scenarios_test

import (
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// TestNatsMsgIDWindowProofs: JetStream's Nats-Msg-Id dedup is exactly as
// long as the stream's duplicate window, and a consumer's record of
// processed ids covers what the window cannot. Each case is a claim of
// docs/scenarios.md that its row cannot declare with explore: (which
// explores the scenario's fault kinds, pause included).
func TestNatsMsgIDWindowProofs(t *testing.T) {
	for _, c := range []struct {
		kinds  string
		params map[string]string
		holds  bool
	}{
		{"loss,ack-loss", nil, true},                                                           // retries 1 s apart, inside 2 min
		{"loss,ack-loss", map[string]string{"retry": "3m"}, false},                             // a retry after the window is stored again
		{"ack-loss", map[string]string{"retry": "3m", "attempts": "3", "window": "10m"}, true}, // window > retry horizon (6 min)
		{"ack-loss", map[string]string{"retry": "3m", "attempts": "3", "window": "2m"}, false},
		{"pause", nil, false}, // the late ack after AckWait
		{"loss,ack-loss,crash,pause", map[string]string{"dedup": "msg-id", "retry": "3m"}, true},
	} {
		_, res := exploreVerdict(t, "nats-msg-id-window", sim.Idempotent, c.kinds, 2, c.params)
		if res.Holds != c.holds {
			t.Errorf("%v, %s ≤2: holds=%v, want %v (%s)", c.params, c.kinds, res.Holds, c.holds, res.Why)
		}
	}
}

// TestNatsDuplicateAckCarriesTheFirstSequence: the schedule that stores a
// second copy with retry=3m (its first publish ack lost), replayed with a
// 10-minute window, answers the retry with status 200 and the sequence of
// the first copy, and ships each order once.
func TestNatsDuplicateAckCarriesTheFirstSequence(t *testing.T) {
	_, cex := exploreVerdict(t, "nats-msg-id-window", sim.Idempotent, "ack-loss", 1, map[string]string{"retry": "3m"})
	if cex.Holds {
		t.Fatal("retry=3m with one lost publish ack: no second copy found")
	}
	cfg := scenarioExploreConfig(t, "nats-msg-id-window", sim.Idempotent, "ack-loss", map[string]string{"retry": "3m", "window": "10m"})
	events, out := replayChoices(t, cfg, cex.Choices)
	first := map[sim.OpID]int64{}
	var duplicates int
	for _, s := range sendsOf(t, cfg, events, "stream", "publish-ack") {
		switch s.msg.Status {
		case roles.StatusCreated:
			if _, again := first[s.msg.Op]; again {
				t.Errorf("op-%d stored twice inside the window (sequence %d)", s.msg.Op, s.msg.Key)
			}
			first[s.msg.Op] = s.msg.Key
		case roles.StatusOK:
			duplicates++
			if s.msg.Key != first[s.msg.Op] {
				t.Errorf("op-%d: duplicate ack with sequence %d, the first copy is at %d", s.msg.Op, s.msg.Key, first[s.msg.Op])
			}
		}
	}
	if duplicates == 0 {
		t.Error("no publish ack said duplicate")
	}
	for op, n := range effectsPerOp(out) {
		if n != 1 {
			t.Errorf("op-%d shipped %d times inside the window", op, n)
		}
	}
}

// TestNatsLateAckIsAcceptedForTheRedelivery: in explore's pause
// counterexample the stream redelivers an order after AckWait, then takes
// the first delivery's late ack and answers it 200 — no signal to the
// subscriber, unlike Pub/Sub's 410 — and the redelivery ships it again.
func TestNatsLateAckIsAcceptedForTheRedelivery(t *testing.T) {
	cfg, res := exploreVerdict(t, "nats-msg-id-window", sim.Idempotent, "pause", 1, nil)
	if res.Holds {
		t.Fatal("a pause past AckWait: no duplicate shipment found")
	}
	events, out := replayChoices(t, cfg, res.Choices)
	var redelivered sent
	for _, s := range sendsOf(t, cfg, events, "stream", "deliver") {
		if s.msg.Attempt == 2 {
			redelivered = s
			break
		}
	}
	if redelivered.msg.Op == 0 {
		t.Fatal("no redelivery after AckWait")
	}
	accepted := false
	for _, s := range sendsOf(t, cfg, events, "stream", "ack-response") {
		if s.seq > redelivered.seq && s.msg.Op == redelivered.msg.Op && s.msg.Attempt == 1 {
			accepted = s.msg.Status == roles.StatusOK
			if !accepted {
				t.Errorf("the late ack of delivery #1 was answered %d", s.msg.Status)
			}
		}
	}
	if !accepted {
		t.Error("no answer to the first delivery's ack after the redelivery")
	}
	if n := effectsPerOp(out)[redelivered.msg.Op]; n != 2 {
		t.Errorf("op-%d shipped %d times, want 2 (the first delivery and the redelivery)", redelivered.msg.Op, n)
	}
}
