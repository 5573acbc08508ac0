//go:build integration

package brokers

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// runKfake runs idempotent-producer-retry on kfake (in this process).
func runKfake(t *testing.T, sem sim.Semantics, params map[string]string) (runs.Run, string) {
	t.Helper()
	sc, ps := planned(t, "idempotent-producer-retry", sem, params, 1)
	var ev bytes.Buffer
	start := time.Now()
	done, err := RunAll(context.Background(), Options{Broker: "kfake", Deadline: time.Minute, Stderr: &ev}, sc, ps)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.String())
	}
	t.Logf("%s %v: %s in %s", sem.Alias(), params, done[0].Outcome.Status, time.Since(start).Round(time.Millisecond))
	if !strings.Contains(ev.String(), "not Apache Kafka") {
		t.Errorf("the run does not say kfake is not Apache Kafka:\n%s", ev.String())
	}
	return done[0], ev.String()
}

// maxEffects is the most records any operation left.
func maxEffects(r runs.Run) int32 {
	var m int32
	for _, op := range r.Outcome.Ops {
		m = max(m, op.Effects)
	}
	return m
}

// TestIntegrationKfakeIdempotentProducer: on seed 1 the decider loses
// op-1's first ack (kfake appends, then answers
// NOT_ENOUGH_REPLICAS_AFTER_APPEND) and franz-go retries. Without
// idempotence the retry is a second record; with it kfake recognises the
// producer id and sequence and keeps one.
func TestIntegrationKfakeIdempotentProducer(t *testing.T) {
	alo, ev := runKfake(t, sim.AtLeastOnce, nil)
	if !strings.Contains(ev, "op-1 attempt 1: appended, the ack is lost") {
		t.Errorf("seed 1 lost no ack of op-1:\n%s", ev)
	}
	if alo.Outcome.Ops[0].Effects != 2 || alo.Outcome.Status != sim.Held {
		t.Errorf("alo: op-1 left %d records (%s), want 2 and ≥1 holding", alo.Outcome.Ops[0].Effects, alo.Outcome.Status)
	}
	idem, ev := runKfake(t, sim.Idempotent, nil)
	if maxEffects(idem) != 1 || idem.Outcome.Status != sim.Held {
		t.Errorf("idem: at most %d records an operation (%s), want 1 each\n%s", maxEffects(idem), idem.Outcome.Why, ev)
	}
	off, ev := runKfake(t, sim.Idempotent, map[string]string{"idempotence": "false"})
	if off.Outcome.Ops[0].Effects != 2 || off.Outcome.Status != sim.Violated {
		t.Errorf("idem, enable.idempotence=false: op-1 left %d records (%s), want 2, violated\n%s", off.Outcome.Ops[0].Effects, off.Outcome.Status, ev)
	}
}
