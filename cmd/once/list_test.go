package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// catalogNames are the scenarios of the course's catalog (SCENARIOS.md).
var catalogNames = []string{
	"two-generals", "double-billing", "at-least-once-duplicate", "idempotent-producer-retry",
	"kafka-eos-happy-path", "transaction-abort", "flink-2pc-sink", "flink-failure-recovery",
	"idempotent-consumer-dedup", "expired-dedup-ttl", "eos-without-sink-cooperation", "outbox",
	"ambiguous-external-outcome", "concurrent-same-key", "key-reuse-different-payload",
	"new-key-per-retry", "server-generated-key", "in-memory-dedup-restart", "mark-after-effect",
	"rate-limit-403-backoff", "multi-step-operation", "increment-vs-set", "upsert-natural-key",
	"windowed-aggregate-recompute",
	"http-methods", "missing-key-400", "key-scoped-to-user", "nondeterministic-response",
	"saga-orchestrator", "telemetry-at-most-once", "dedup-store-growth", "pubsub-subscriber-session",
	"nats-msg-id-window", "sqs-fifo-dedup-window", "cdc-outbox-reemit",
}

// TestListJSONCoversTheCatalog: `once list --format json` names every
// scenario of the course with its topology, semantics and summary.
func TestListJSONCoversTheCatalog(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := execute([]string{"list", "--format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Schema    string `json:"schema"`
		Scenarios []struct {
			Name      string   `json:"name"`
			Topology  string   `json:"topology"`
			Semantics []string `json:"semantics"`
			Summary   string   `json:"summary"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "once.list/v1" {
		t.Errorf("schema %q", doc.Schema)
	}
	var names []string
	for _, s := range doc.Scenarios {
		names = append(names, s.Name)
		if s.Topology == "" || s.Summary == "" || len(s.Semantics) == 0 {
			t.Errorf("%s: incomplete entry %+v", s.Name, s)
		}
	}
	for _, want := range catalogNames {
		if !slices.Contains(names, want) {
			t.Errorf("the catalog lacks %s", want)
		}
	}
}

// TestRolesDocumentEveryOption: `once roles --format json` lists every
// registered role with a doc line and documented options.
func TestRolesDocumentEveryOption(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := execute([]string{"roles", "--format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Roles []struct {
			Name    string `json:"name"`
			Doc     string `json:"doc"`
			Options []struct {
				Name string `json:"name"`
				Kind string `json:"kind"`
				Doc  string `json:"doc"`
			} `json:"options"`
		} `json:"roles"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Roles) < 10 {
		t.Fatalf("only %d roles", len(doc.Roles))
	}
	for _, r := range doc.Roles {
		if r.Doc == "" {
			t.Errorf("role %s has no doc", r.Name)
		}
		for _, o := range r.Options {
			if o.Doc == "" || o.Kind == "" {
				t.Errorf("role %s: option %s is undocumented", r.Name, o.Name)
			}
		}
	}
}
