package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeShowsTheHeadlineAsPrinted: the README's first command shows
// its output; the table there must be what the command prints today, so
// the first thing a student reads is not a stale format.
func TestReadmeShowsTheHeadlineAsPrinted(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := runCLI(t, exitOK, "run", "double-billing", "--seed", "17")
	lines := strings.Split(out, "\n")
	if len(lines) < 10 {
		t.Fatalf("run printed %d lines", len(lines))
	}
	table := strings.Join(lines[:10], "\n")
	if !strings.Contains(string(readme), "```\n"+table+"\n```") {
		t.Errorf("README.md's headline block is not what `once run double-billing --seed 17` prints; it prints:\n%s", table)
	}
}
