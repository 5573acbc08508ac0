package shard

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/oncesim/once/scenarios"
)

// Error is a shard refused for what it says: the file, the field and why.
// Every check merge makes of a shard's content after reading it returns
// one, so the command can tell a refused shard from a mistake of its own
// arguments.
type Error struct {
	File, Field, Msg string
}

func (e *Error) Error() string { return e.File + ": " + e.Field + ": " + e.Msg }

// ScenarioFile is a scenario file a shard's command read (-f FILE), as
// text: merge loads the scenario from it, with the checks of any scenario
// file, and never opens a path a shard names. Name is the path as the
// shard's command line gave it, for the report's words only.
type ScenarioFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Search is the bounds an explore shard searched within, after the
// scenario's defaults: merge checks that the shards' arguments give the
// same, and that the counts fit them.
type Search struct {
	Semantics      string `json:"semantics"`
	Ops            int    `json:"ops"`
	MaxFaults      int    `json:"max_faults"`
	MaxPreemptions int    `json:"max_preemptions"`
	Faults         string `json:"faults"`
	Property       string `json:"property"`
	MaxDepth       int    `json:"max_depth"`
	MaxStates      int    `json:"max_states"`
}

// Bounds on what a header may hold (far above what once writes).
const (
	MaxArgs     = 1000    // arguments
	MaxArgBytes = 4 << 10 // one argument, one scenario file's name
)

// commands are the commands a shard can be of.
var commands = map[string]bool{"matrix": true, "sweep": true, "explore": true}

// checkHeader checks what a header says before anything prints it: a
// command merge knows, arguments and scenario file names that are short,
// valid UTF-8 text without control characters, and scenario files within
// the size of one. What the arguments mean is checked by the command
// (see the merge command in cmd/once).
func checkHeader(h *Header) error {
	if !commands[h.Command] {
		return fmt.Errorf("command: %q: a shard is of matrix, sweep or explore", h.Command)
	}
	if len(h.Args) > MaxArgs {
		return fmt.Errorf("args: %d arguments, more than %d", len(h.Args), MaxArgs)
	}
	for i, a := range h.Args {
		if why := badText(a); why != "" {
			return fmt.Errorf("args[%d]: %q %s", i, clip(a), why)
		}
	}
	for i, f := range h.ScenarioFiles {
		if f.Name == "" {
			return fmt.Errorf("scenario_files[%d].name: empty", i)
		}
		if why := badText(f.Name); why != "" {
			return fmt.Errorf("scenario_files[%d].name: %q %s", i, clip(f.Name), why)
		}
		if len(f.Text) > scenarios.MaxScenarioFileBytes {
			return fmt.Errorf("scenario_files[%d].text: %d bytes, more than a scenario file's %d", i, len(f.Text), scenarios.MaxScenarioFileBytes)
		}
	}
	return nil
}

// badText says what is wrong with s as one argument or name, or "".
func badText(s string) string {
	switch {
	case len(s) > MaxArgBytes:
		return fmt.Sprintf("is longer than %d bytes", MaxArgBytes)
	case !utf8.ValidString(s):
		return "is not UTF-8"
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r):
			return "holds a control character"
		case r == utf8.RuneError:
			return "holds U+FFFD (bytes that were not UTF-8)"
		}
	}
	return ""
}

// clip shortens s for an error line.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
