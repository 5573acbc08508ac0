package shard

import (
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
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

// searchParams are the flags of matrix, sweep and explore that are
// parameters of the search or of its report: what a shard records and
// the only flags merge accepts in a shard's arguments. (Every flag of the
// three commands is a parameter or in notParams: a test in cmd/once keeps
// it so.)
var searchParams = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{
		"seeds", "semantics", "ops", "set", "vary", "max-events", "max-time", "swarm", "faults-until", "settle", // the runs
		"max-faults", "max-preemptions", "faults", "property", "max-depth", "max-states", "max-memory", "reduce", // the search
		"format", "check", "timing", // the report
	} {
		m[n] = true
	}
	for k := range sim.FaultKinds {
		m[sim.FaultKinds[k].Name] = true
		if d := sim.FaultKinds[k].Duration; d != nil {
			m[d.Name] = true
		}
	}
	return m
}()

// notParams are the flags a shard never records, and why merge refuses
// them in a shard's arguments: they name a file or an output, ask for
// help, or say how to run on one machine.
var notParams = map[string]string{
	"file":       "names a scenario file (a shard carries the file's text, not its path)",
	"out":        "names an output file (merge writes only where its own --out says)",
	"save":       "names an output file (merge writes only where its own --out says)",
	"cpuprofile": "names a profile file",
	"memprofile": "names a profile file",
	"help":       "asks for help",
	"shard":      "says which shard to run, not what",
	"workers":    "says how to run, not what",
}

// IsParam reports whether the flag called name is a parameter of the
// search (recorded in a shard, accepted by merge); else, whether merge
// refuses it by name and why.
func IsParam(name string) (param bool, refused string) {
	return searchParams[name], notParams[name]
}

// CanonicalArgs spells the command line that decides a batch's result,
// from its parsed flags fl and positional arguments: the positional
// arguments and every search parameter set, in flag order, each as
// --name=value. It leaves out the flags that say how to run (--shard,
// --workers, profiles) or name a file (--out, and --file: a shard carries
// the scenario file's text). Shards of one batch carry the same
// canonical arguments; merge checks it, checks them, and runs the
// command again with them.
func CanonicalArgs(fl *pflag.FlagSet, args []string) []string {
	out := append([]string{}, args...)
	fl.Visit(func(f *pflag.Flag) {
		if !searchParams[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return out
}

// CheckArgs parses the shards' arguments on fl, the flags of a fresh
// command of their kind (help flag included), as its command line would
// be, restricted to the search's parameters: every flag set must be one
// (no file, output, profile or help), every positional argument a
// catalog scenario (none with a scenario file), and the whole spelled
// exactly as a shard records it. Nothing is run or opened.
func (m *Merged) CheckArgs(fl *pflag.FlagSet) error {
	bad := func(format string, a ...any) error { return &Error{m.File, "args", fmt.Sprintf(format, a...)} }
	if err := fl.Parse(m.Args); err != nil {
		return bad("%v", err)
	}
	var refused error
	fl.Visit(func(f *pflag.Flag) {
		if refused != nil || searchParams[f.Name] {
			return
		}
		why, known := notParams[f.Name]
		if !known {
			why = "is not a parameter of the search"
		}
		refused = bad("--%s %s: a shard's arguments hold only the search's parameters", f.Name, why)
	})
	if refused != nil {
		return refused
	}
	pos := fl.Args()
	if len(pos) > 0 && len(m.ScenarioFiles) > 0 {
		return bad("%q and a scenario file: a shard is of one or the other", pos[0])
	}
	for _, name := range pos {
		if _, err := scenarios.Lookup(name); err != nil {
			return bad("%v", err)
		}
	}
	if canon := CanonicalArgs(fl, pos); !slices.Equal(canon, m.Args) {
		return bad("%q is not how a shard records its arguments (that would be %q)", m.Args, canon)
	}
	return nil
}

// ScenarioFiles are the scenario files among scs, as a shard carries
// them: the name the command line gave and the bytes loaded. A built-in
// scenario is not among them (a shard names it), and telling one needs no
// look-up: decoding the catalog's file of a scenario's name to compare
// would cost a run from a file a second YAML parse.
func ScenarioFiles(scs ...*scenarios.Scenario) []ScenarioFile {
	var out []ScenarioFile
	for _, sc := range scs {
		if !sc.BuiltIn() {
			out = append(out, ScenarioFile{Name: sc.File, Text: string(sc.Source)})
		}
	}
	return out
}

// Scenarios loads the scenario files the shards carry, each checked as
// any scenario file is; a sweep's or an explore's shard carries at most
// one.
func (m *Merged) Scenarios() ([]*scenarios.Scenario, error) {
	if m.Command != "matrix" && len(m.ScenarioFiles) > 1 {
		return nil, &Error{m.File, "scenario_files", fmt.Sprintf("%d, but %s takes one scenario", len(m.ScenarioFiles), m.Command)}
	}
	var out []*scenarios.Scenario
	for i, f := range m.ScenarioFiles {
		sc, err := scenarios.Load(f.Name, []byte(f.Text))
		if err != nil {
			return nil, &Error{m.File, fmt.Sprintf("scenario_files[%d]", i), err.Error()}
		}
		out = append(out, sc)
	}
	return out, nil
}
