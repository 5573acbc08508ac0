package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// SuiteRun is one once live --suite: the suite, its seeds, how it is
// written, and what the command line gave (checked by Check).
type SuiteRun struct {
	Name    string
	Target  string
	First   uint64 // --seed
	Seeds   int    // --seeds
	Format  string // text or json
	Verbose bool
	Rows    []string // --rows: only these rows (SuiteCase.Tests), all when empty
	Args    []string // SCENARIO arguments (refused)
	Changed []string // the names of the flags given
}

// Check reports, in one line, why the suite cannot run (CheckSuite), or
// why its --format cannot be honoured: a suite is a table of rows, text
// or JSON; the timeline of one run is a replay line's, --format trace.
func (s SuiteRun) Check() error {
	if err := CheckSuite(s.Name, s.Target, s.Seeds, s.Args, s.Changed); err != nil {
		return err
	}
	for _, r := range s.Rows {
		if !slices.ContainsFunc(Suites[s.Name], func(c SuiteCase) bool { return c.Tests == r }) {
			return refuse("live_suite_no_row", map[string]any{"Rows": strings.Join(s.Rows, ","), "Suite": s.Name, "Row": r, "Known": strings.Join(RowNames(s.Name), ", ")},
				fmt.Sprintf("--rows %s: suite %s has no row %q; its rows: %s", strings.Join(s.Rows, ","), s.Name, r, strings.Join(RowNames(s.Name), ", ")))
		}
	}
	switch s.Format {
	case "", "text", "json":
		return nil
	case "trace":
		return refuse("live_suite_trace", map[string]any{"Suite": s.Name}, fmt.Sprintf("--suite %s: --format trace: a suite makes a run per row and seed; give --format trace to a failing seed's replay line (text or json here)", s.Name))
	}
	return refuse("live_suite_format", map[string]any{"Suite": s.Name, "Format": s.Format}, fmt.Sprintf("--suite %s: --format %q: want text or json", s.Name, s.Format))
}

// Run runs the suite against base.Target, once it answers (WaitReady),
// and writes it to w in its format; the status is the suite's verdict
// (SuiteStatus). On an error
// (Ctrl-C, a target that stopped answering) the rows done so far are
// written, with the verdict unknown unless a row was violated.
func (s SuiteRun) Run(ctx context.Context, base Options, w io.Writer) (sim.Status, error) {
	// A target that does not answer is said in one line before any row,
	// not as a table of nothing.
	if err := WaitReady(ctx, base.Target, base.TargetReady, base.Stderr); err != nil {
		return sim.Unknown, err
	}
	rows, err := RunSuite(ctx, base, s.Name, s.First, s.Seeds, s.Verbose, s.Rows)
	if s.Format == "json" {
		if werr := WriteSuiteJSON(w, s.Name, base.Target, s.First, s.Seeds, rows, err); werr != nil && err == nil {
			err = werr
		}
	} else {
		WriteSuite(w, s.Name, s.First, s.Seeds, rows, err != nil)
	}
	return SuiteStatus(rows), err
}

// suiteDoc is the JSON of a suite: English words, as every JSON of once.
type suiteDoc struct {
	Suite   string       `json:"suite"`
	Target  string       `json:"target"`
	Seeds   []uint64     `json:"seeds"`
	Rows    []suiteRowJS `json:"rows"`
	Verdict string       `json:"verdict"`
	// Error is why the suite stopped before its last row, if it did.
	Error string `json:"error,omitempty"`
}

type suiteRowJS struct {
	Row      string        `json:"row"`
	Scenario string        `json:"scenario"`
	Tests    string        `json:"tests"`
	Params   []string      `json:"params"`
	Restart  bool          `json:"needs_restart_cmd"`
	Run      bool          `json:"run"`
	Verdict  string        `json:"verdict"`
	Failures []suiteFailJS `json:"failures"`
	Storms   []SuiteStorm  `json:"retry_storms"`
}

type suiteFailJS struct {
	Seed    uint64   `json:"seed"`
	Verdict string   `json:"verdict"`
	Ops     []string `json:"ops"`
	Replay  string   `json:"replay"`
}

// WriteSuiteJSON writes the suite's rows as one JSON document: per row
// the scenario, what it tests, whether it ran, its verdict, each failing
// seed with its operations' charge ids and replay command, the retry
// storms; then the suite's verdict (unknown when runErr cut it short and
// no row was violated) and runErr's text.
func WriteSuiteJSON(w io.Writer, name, target string, first uint64, n int, rows []SuiteRow, runErr error) error {
	doc := suiteDoc{Suite: name, Target: MaskURL(target), Rows: []suiteRowJS{}}
	for i := 0; i < n; i++ {
		doc.Seeds = append(doc.Seeds, first+uint64(i))
	}
	for _, r := range rows {
		js := suiteRowJS{Row: r.Case.Tests, Scenario: r.Case.Scenario, Tests: lang.English.T("suite.tests." + r.Case.Tests),
			Params: r.Case.flags(), Restart: r.Case.Restart, Run: !r.Skipped, Verdict: r.Status.String(),
			Failures: []suiteFailJS{}, Storms: r.Storms}
		if r.Skipped {
			js.Verdict = "not run"
		}
		if js.Storms == nil {
			js.Storms = []SuiteStorm{}
		}
		for _, f := range r.Failures {
			ops := f.Ops
			if ops == nil {
				ops = []string{}
			}
			js.Failures = append(js.Failures, suiteFailJS{Seed: f.Seed, Verdict: f.Status.String(), Ops: ops, Replay: f.Replay})
		}
		doc.Rows = append(doc.Rows, js)
	}
	verdict := SuiteStatus(rows)
	if runErr != nil {
		doc.Error = runErr.Error()
		if verdict == sim.Held {
			verdict = sim.Unknown
		}
	}
	doc.Verdict = verdict.String()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// flags are the row's settings over the scenario's, as once live's flags
// ("--loss 0.3", "--set key=per-operation"), sorted.
func (c SuiteCase) flags() []string {
	out := []string{}
	for k, p := range c.Faults {
		out = append(out, fmt.Sprintf("--%s %g", k, p))
	}
	if c.LateMs > 0 {
		out = append(out, fmt.Sprintf("--late-ms %d", c.LateMs))
	}
	if c.Ops > 0 {
		out = append(out, fmt.Sprintf("--ops %d", c.Ops))
	}
	for k, v := range c.Params {
		out = append(out, "--set "+k+"="+v)
	}
	sort.Strings(out)
	return out
}

// RowNames are the names of the rows of the suite name, in its order:
// what --rows takes, and the JSON's "row".
func RowNames(name string) []string {
	var out []string
	for _, c := range Suites[name] {
		out = append(out, c.Tests)
	}
	return out
}
