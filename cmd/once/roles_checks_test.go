package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// once roles lists the invariants a scenario file can name, each with its
// doc, and the sinks (issue 29 item 8), as text and as JSON.
func TestRolesListInvariantsAndSinks(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := execute([]string{"roles", "--format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Invariants []struct{ Name, Doc string } `json:"invariants"`
		Sinks      []string                     `json:"sinks"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, inv := range doc.Invariants {
		if inv.Doc == "" {
			t.Errorf("invariant %s has no doc", inv.Name)
		}
		names = append(names, inv.Name)
	}
	for _, want := range []string{"one-receipt", "own-receipt", "keyed-charges"} {
		if !slices.Contains(names, want) {
			t.Errorf("invariants %v lack %s", names, want)
		}
	}
	if !slices.Contains(doc.Sinks, "billing") || !slices.Contains(doc.Sinks, "card-charges") || !slices.IsSorted(doc.Sinks) {
		t.Errorf("sinks %v, want billing and card-charges among them, sorted", doc.Sinks)
	}
	stdout.Reset()
	if code := execute([]string{"roles"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"\ninvariants — ", "    one-receipt ", "\nsinks — ", "billing, "} {
		if !strings.Contains(text, want) {
			t.Errorf("once roles lacks %q", want)
		}
	}
}
