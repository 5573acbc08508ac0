package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
)

// TestTTLSweepMarksTheReplayHorizon: a TTL sweep marks the replay horizon
// at the run's own value of replay, in JSON and in the table.
func TestTTLSweepMarksTheReplayHorizon(t *testing.T) {
	for _, c := range []struct {
		set   []string
		x     float64
		value string
	}{{nil, 60000, "1m"}, {[]string{"--set", "replay=20s"}, 20000, "20s"}} {
		args := append([]string{"sweep", "expired-dedup-ttl", "--vary", "ttl=15s:90s:15s", "--seeds", "2", "--format", "json"}, c.set...)
		code, out, errOut := runOnce(args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var d report.SweepDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Marks) != 1 || d.Marks[0].X != c.x || d.Marks[0].Value != c.value || d.Marks[0].Label != "replay horizon" {
			t.Errorf("%v: marks %+v, want the replay horizon at %v", c.set, d.Marks, c.x)
		}
	}
	_, text, _ := runOnce("sweep", "expired-dedup-ttl", "--vary", "ttl=15s:90s:15s", "--seeds", "2")
	if !strings.Contains(text, "= replay horizon 1m") {
		t.Errorf("the table does not mark the horizon:\n%s", text)
	}
}

// TestReconcileSweepShowsRateAndKnee: sweeping the reconciler's pace shows
// r = 1/reconcile-every, the measured arrival rate u, and the knee, the
// first point where r < u.
func TestReconcileSweepShowsRateAndKnee(t *testing.T) {
	code, out, errOut := runOnce("sweep", "ambiguous-external-outcome", "--vary", "reconcile-every=100ms:1s:300ms", "--ops", "200", "--seeds", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var d report.SweepDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Rate == nil || len(d.Rate.PerSecond) != len(d.Points) {
		t.Fatalf("rate %+v", d.Rate)
	}
	knee := -1
	for i, p := range d.Points {
		if r := d.Rate.PerSecond[i]; r*p.X < 999.999 || r*p.X > 1000.001 {
			t.Errorf("at %s r = %v/s, want 1/%s", p.Value, r, p.Value)
		}
		if knee < 0 && d.Rate.PerSecond[i] < p.Metrics["unknown-arrival-rate"] {
			knee = i
		}
	}
	if knee < 1 || d.Rate.Knee != d.Points[knee].Value {
		t.Errorf("knee %q, want the first point where r < u (index %d)", d.Rate.Knee, knee)
	}
	_, text, _ := runOnce("sweep", "ambiguous-external-outcome", "--vary", "reconcile-every=100ms:1s:300ms", "--ops", "200", "--seeds", "3")
	for _, want := range []string{"r (/s)", "u = unknown-arrival-rate (/s)", "← knee: r < u"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
}
