package queue

import (
	"testing"

	"github.com/oncesim/once/sim"
)

// The retention and telemetry folds judge what they say, on hand-written
// events: node 0 has its dedup table at index 0.
func TestRetentionAndTelemetryFolds(t *testing.T) {
	dedup := []uint64{1}
	put := func(key int64) *sim.Event {
		return &sim.Event{Kind: sim.EvStorePut, Node: 0, Label: 0, Msg: sim.Message{Key: key, Op: sim.OpID(key)}}
	}
	del := func(key int64, expired bool) *sim.Event {
		return &sim.Event{Kind: sim.EvStoreDelete, Node: 0, Label: 0, Found: expired, Msg: sim.Message{Key: key, Op: sim.OpID(key)}}
	}
	peak := &dedupRowsPeak{dedup: dedup}
	kept := &keptForRetention{dedup: dedup}
	for _, e := range []*sim.Event{put(1), put(2), put(2), del(1, true), put(3), put(4)} {
		peak.Record(e)
		kept.Record(e)
	}
	if got := peak.Value(); got != 3 {
		t.Fatalf("peak rows %v, want 3 (1 and 2 live, 1 expired, then 2, 3, 4)", got)
	}
	if v := kept.Violation(true); v != "" {
		t.Fatalf("an expiry flagged as an early removal: %s", v)
	}
	kept.Record(del(2, false))
	if kept.Violation(true) == "" {
		t.Fatal("an eviction (a delete that is not an expiry) was not flagged")
	}

	publish := func(op sim.OpID) *sim.Event {
		return &sim.Event{Kind: sim.EvSend, Msg: sim.Message{Kind: MsgPublish, Op: op}}
	}
	count := func(op sim.OpID) *sim.Event {
		return &sim.Event{Kind: sim.EvEffect, Label: uint16(SinkMetricSamples), Msg: sim.Message{Op: op}}
	}
	never := &neverOvercounted{}
	over, under := &countError{over: true}, &countError{}
	for _, e := range []*sim.Event{publish(1), publish(2), publish(3), publish(4), count(1), count(2), count(2)} {
		never.Record(e)
		over.Record(e)
		under.Record(e)
	}
	if never.Violation(true) == "" {
		t.Fatal("op-2 counted twice, not flagged")
	}
	if got := over.Value(); got != 25 {
		t.Fatalf("overcount %v%%, want 25 (one extra count over four samples)", got)
	}
	if got := under.Value(); got != 50 {
		t.Fatalf("undercount %v%%, want 50 (ops 3 and 4 never counted)", got)
	}
}
