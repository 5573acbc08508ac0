package live

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// SuiteCase is one row of a suite: a catalog scenario under the
// idempotent client, with the faults and parameters that make it test one
// thing of a payment service.
type SuiteCase struct {
	Scenario string
	// Tests is the lang id (suite.tests.*) of what the row tests.
	Tests  string
	Params map[string]string
	// Faults are the probabilities set over the scenario's own; LateMs,
	// when not 0, is --late-ms.
	Faults map[sim.FaultKind]float64
	LateMs sim.Time
	// Ops, when not 0, is the number of operations (--ops) over the
	// scenario's: more payments, more chances per seed.
	Ops int
	// Restart: the row crashes the service, so it runs only with
	// --restart-cmd.
	Restart bool
}

// DefaultSuiteSeeds is how many seeds a suite runs each row on unless
// told: measured (docs/live.md, "--suite payments") against the careful
// Python service's four planted bugs, the least likely to be caught on a
// seed (a lease shorter than the provider's timeout, the lease row alone)
// was on 17 of 20: 5 seeds miss it with probability about 10⁻⁴.
const DefaultSuiteSeeds = 5

// StormAnswers is the 409 answers to one operation past which a run that
// held fails its row: the operation retried its way to one effect through
// a storm of "in flight" answers (a key left PROCESSING that nothing
// recovers until a lease runs out or a retry happens to find it done)
// rather than being answered. Measured (docs/live.md): the careful and
// idempotent examples answer an operation 409 a few times at most (the
// double click, at load 25: 5 or fewer); the careful service without its
// recovery at start, 19 to 45 times.
const StormAnswers = 10

// Suites are the suites --suite names, each a list of rows.
var Suites = map[string][]SuiteCase{
	"payments": {
		{Scenario: "double-billing", Tests: "lost", Faults: map[sim.FaultKind]float64{sim.FaultLoss: 0.3, sim.FaultAckLoss: 0.3}},
		{Scenario: "double-billing", Tests: "duplicates", Faults: map[sim.FaultKind]float64{sim.FaultDup: 0.3}},
		{Scenario: "double-billing", Tests: "slow_late", Faults: map[sim.FaultKind]float64{sim.FaultSlow: 0.3, sim.FaultLate: 0.3}, LateMs: 1500},
		{Scenario: "new-key-per-retry", Tests: "client_key", Params: map[string]string{"key": "per-operation"}},
		{Scenario: "key-reuse-different-payload", Tests: "reuse"},
		{Scenario: "concurrent-same-key", Tests: "double_click", Faults: map[sim.FaultKind]float64{sim.FaultPreempt: 0}},
		// 10 operations, not the scenario's 3: a lease shorter than the
		// provider's timeout was caught on 2 seeds of 5 with 3 (a charge
		// late on the first attempt, a retry inside the window).
		{Scenario: "stuck-processing-lease", Tests: "lease", Faults: map[sim.FaultKind]float64{sim.FaultLate: 0.3}, LateMs: 2000, Ops: 10},
		{Scenario: "double-billing", Tests: "crash_points", Faults: map[sim.FaultKind]float64{sim.FaultCrash: 0.3}, Restart: true},
		{Scenario: "mark-after-effect", Tests: "mark", Params: map[string]string{"mark": "before"}, Faults: map[sim.FaultKind]float64{sim.FaultCrash: 0.3}, Restart: true},
		{Scenario: "in-memory-dedup-restart", Tests: "restart", Params: map[string]string{"store": "durable"}, Restart: true},
	},
}

// SuiteNames lists the suites, sorted.
func SuiteNames() []string {
	var names []string
	for n := range Suites {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// suiteFlags are the flags of once live a suite takes: each row sets its
// own scenario, semantics, faults and parameters, so any other is refused.
// --format is checked by SuiteRun.Check; --print-env prints and exits
// before a suite runs.
var suiteFlags = map[string]bool{"suite": true, "seeds": true, "seed": true, "target": true, "provider-addr": true,
	"allow-remote": true, "restart-cmd": true, "target-ready": true, "db": true, "tick": true, "deadline": true,
	"verbose": true, "check": true, "lang": true, "format": true, "print-env": true, "rows": true}

// suiteRefusals are the flags a suite refuses for a reason of their own,
// not because each row sets them: the reason's message id (after
// "error.live_suite_refuses_") and its English.
var suiteRefusals = map[string]struct{ id, english string }{
	"save":       {"save", "a suite makes a run per row and seed; each failing seed's replay line runs it again, give --save to that"},
	"replay":     {"replay", "a plan replays one run; give it to once live --replay without --suite"},
	"broker":     {"broker", "a suite drives your --target payment service, not a broker"},
	"broker-url": {"broker", "a suite drives your --target payment service, not a broker"},
	"variant":    {"variant", "a suite drives your --target payment service, not a broker's consumer"},
	"file":       {"file", "the suite names its own catalog scenarios"},
}

// CheckSuite reports, in one line, why a suite cannot run: an unknown
// name, no --target (a suite certifies your service), seeds out of range,
// a SCENARIO given, or a flag the rows set themselves (changed: the flags
// given).
func CheckSuite(name, target string, seeds int, args, changed []string) error {
	if name == "" && slices.Contains(changed, "rows") {
		return refuse("live_rows_without_suite", nil, "--rows goes with --suite: it picks rows of a suite")
	}
	if name == "" {
		return refuse("live_seeds_without_suite", nil, "--seeds goes with --suite: a single run takes --seed")
	}
	if _, ok := Suites[name]; !ok {
		return refuse("live_unknown_suite", map[string]any{"Suite": name, "Want": strings.Join(SuiteNames(), ", ")}, fmt.Sprintf("--suite %q: want one of %s", name, strings.Join(SuiteNames(), ", ")))
	}
	if target == "" {
		return refuse("live_suite_without_target", map[string]any{"Suite": name}, fmt.Sprintf("--suite %s goes with --target: it certifies your payment service", name))
	}
	if seeds < 1 || seeds > 1000 {
		return refuse("live_suite_seeds", map[string]any{"Seeds": seeds}, fmt.Sprintf("--seeds %d: want 1 to 1000", seeds))
	}
	if len(args) > 0 {
		return refuse("live_suite_scenario", map[string]any{"Suite": name, "Scenario": args[0]}, fmt.Sprintf("--suite %s: give no SCENARIO (%s), the suite names its own", name, args[0]))
	}
	for _, f := range changed {
		if why, ok := suiteRefusals[f]; ok {
			return refuse("live_suite_refuses_"+why.id, map[string]any{"Suite": name, "Flag": "--" + f}, fmt.Sprintf("--suite %s: --%s: %s", name, f, why.english))
		}
		if !suiteFlags[f] {
			return refuse("live_suite_sets_flag", map[string]any{"Suite": name, "Flag": "--" + f}, fmt.Sprintf("--suite %s: --%s is set by each row of the suite; leave it out", name, f))
		}
	}
	return nil
}

// Settings are the row's settings: the scenario's operations and faults,
// the row's faults and parameters over them, the idempotent client.
func (c SuiteCase) Settings(sc *scenarios.Scenario) scenarios.Settings {
	set := scenarios.Settings{Semantics: sim.Idempotent, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}}
	if c.Ops > 0 {
		set.Ops = c.Ops
	}
	for k, p := range c.Faults {
		set.Faults.Probability[k] = p
	}
	if c.LateMs > 0 {
		set.Faults.Duration[sim.FaultLate] = c.LateMs
	}
	for k, v := range c.Params {
		set.Params[k] = v
	}
	return set
}

// SuiteFailure is one seed of a row that did not hold.
type SuiteFailure struct {
	Seed   uint64
	Status sim.Status
	// Ops names each operation not charged once, with its charge ids
	// ("op-2: 8821, 8822").
	Ops    []string
	Replay string // the live command that runs the seed again
}

// SuiteRow is the result of one row over its seeds.
type SuiteRow struct {
	Case SuiteCase
	// Status is Violated if a seed was or stormed (Storms), else Unknown
	// if one was cut, else Held.
	Status   sim.Status
	Failures []SuiteFailure
	// Storms are the seeds that held only by retrying past StormAnswers.
	Storms  []SuiteStorm
	Skipped bool // a crash row without --restart-cmd
}

// SuiteStorm is a seed of a row that held, where one operation was
// answered 409 more than StormAnswers times: the row fails.
type SuiteStorm struct {
	Seed   uint64   `json:"seed"`
	Op     sim.OpID `json:"op"`
	N      int      `json:"answers_409"` // the 409 answers to Op
	Replay string   `json:"replay"`      // the live command that runs the seed again
}

// RunSuite runs every row of the suite name (only the rows named in
// only, when it is not empty) on seeds first..first+n-1 against
// base.Target, one run after another, and returns the rows; verbose logs
// every server and process each run starts.
func RunSuite(ctx context.Context, base Options, name string, first uint64, n int, verbose bool, only []string) ([]SuiteRow, error) {
	var rows []SuiteRow
	for _, c := range Suites[name] {
		if len(only) > 0 && !slices.Contains(only, c.Tests) {
			continue
		}
		row := SuiteRow{Case: c, Status: sim.Held}
		if c.Restart && base.RestartCmd == "" {
			row.Skipped = true
			rows = append(rows, row)
			continue
		}
		sc, err := scenarios.Lookup(c.Scenario)
		if err != nil {
			return nil, err
		}
		set := c.Settings(sc)
		cfg, err := sc.Config(set)
		if err != nil {
			return nil, fmt.Errorf("suite %s: %s: %w", name, c.Scenario, err)
		}
		opts := base
		if !c.Restart {
			opts.RestartCmd = ""
		}
		if err := CheckAll(sc, []Planned{{Settings: set, Config: cfg}}, true, opts.RestartCmd != ""); err != nil {
			return nil, err
		}
		for seed := first; seed < first+uint64(n); seed++ {
			cfg, _ := sc.Config(set) // a fresh configuration per run: roles keep state
			done, err := RunAll(ctx, opts, sc, []Planned{{Settings: set, Config: cfg, Chooser: sim.NewRandom(seed),
				Replay: runs.Command(sc, sim.Idempotent, seed, set)}}, verbose)
			if err != nil {
				return rows, err
			}
			row.add(seed, done[0])
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// add folds one seed's run into the row.
func (row *SuiteRow) add(seed uint64, r runs.Run) {
	o := r.Outcome
	switch o.Status {
	case sim.Held:
		if op, n := worstConflicts(r.Trace); n > StormAnswers {
			row.Storms = append(row.Storms, SuiteStorm{Seed: seed, Op: op, N: n, Replay: r.Replay})
			row.Status = sim.Violated
		}
		return
	case sim.Violated:
		row.Status = sim.Violated
	default:
		if row.Status == sim.Held {
			row.Status = o.Status
		}
	}
	f := SuiteFailure{Seed: seed, Status: o.Status, Replay: r.Replay}
	var ids map[sim.OpID][]int64
	if r.Trace != nil {
		ids = effectIDs(r.Config, r.Trace)
	}
	for _, op := range o.Ops {
		if op.Effects == 1 {
			continue
		}
		var s []string
		for _, id := range ids[op.Op] {
			s = append(s, fmt.Sprint(id))
		}
		if len(s) == 0 {
			s = append(s, "–")
		}
		f.Ops = append(f.Ops, fmt.Sprintf("op-%d: %s", op.Op, strings.Join(s, ", ")))
	}
	row.Failures = append(row.Failures, f)
}

// SuiteStatus is the suite's one verdict: Violated if a row was, else
// Unknown if a row was cut, else Held (skipped rows aside).
func SuiteStatus(rows []SuiteRow) sim.Status {
	v := sim.Held
	for _, r := range rows {
		switch r.Status {
		case sim.Violated:
			return sim.Violated
		case sim.Held:
		default:
			v = r.Status
		}
	}
	return v
}

// WriteSuite writes the suite's table — scenario, what it tests, verdict,
// the failing seeds with their charge ids — then the live command that
// replays each failing seed, and the suite's verdict: unknown when the
// suite did not finish (cut, not every row run).
func WriteSuite(w io.Writer, name string, first uint64, n int, rows []SuiteRow, cut bool) {
	fmt.Fprintln(w, lang.Tf("suite.title", map[string]any{"Suite": name, "Seeds": seedRange(first, n)}))
	t := newPlainTable(lang.T("suite.scenario"), lang.T("suite.tests_header"), lang.T("suite.verdict"), lang.T("suite.failing"))
	for _, r := range rows {
		verdict := lang.Word("verdict", r.Status.String())
		if r.Skipped {
			verdict = lang.T("suite.skipped")
		} else if len(r.Failures) == 0 && len(r.Storms) > 0 {
			verdict = lang.Tf("suite.storm", map[string]any{"Bound": StormAnswers})
		}
		var failing []string
		for _, f := range r.Failures {
			failing = append(failing, lang.Tf("suite.seed", map[string]any{"Seed": f.Seed})+" "+strings.Join(f.Ops, "; "))
		}
		for _, s := range r.Storms {
			failing = append(failing, lang.Tf("suite.storm_seed", map[string]any{"Seed": s.Seed, "Op": int(s.Op), "N": s.N}))
		}
		if len(failing) == 0 {
			failing = []string{"–"}
		}
		t.Row(r.Case.Scenario, lang.T("suite.tests."+r.Case.Tests), verdict, strings.Join(failing, "\n"))
	}
	fmt.Fprintln(w, t.Render())
	for _, r := range rows {
		for _, f := range r.Failures {
			fmt.Fprintf(w, "%s %s\n", lang.T("suite.replay"), f.Replay)
		}
		for _, s := range r.Storms {
			fmt.Fprintf(w, "%s %s\n", lang.T("suite.replay"), s.Replay)
		}
	}
	verdict := SuiteStatus(rows)
	if cut && verdict == sim.Held {
		verdict = sim.Unknown
	}
	fmt.Fprintln(w, lang.Tf("suite.verdict_line", map[string]any{"Verdict": lang.Word("verdict", verdict.String())}))
}

func seedRange(first uint64, n int) string {
	if n == 1 {
		return fmt.Sprint(first)
	}
	return fmt.Sprintf("%d–%d", first, first+uint64(n)-1)
}

// worstConflicts is the operation your service answered 409 most often in
// a run's trace, and how often.
func worstConflicts(trace *sim.Trace) (sim.OpID, int) {
	if trace == nil {
		return 0, 0
	}
	n := map[sim.OpID]int{}
	var worst sim.OpID
	for i := range trace.Events {
		e := &trace.Events[i]
		if e.Kind == sim.EvSend && e.Msg.Status == 409 {
			n[e.Msg.Op]++
			if n[e.Msg.Op] > n[worst] || (n[e.Msg.Op] == n[worst] && e.Msg.Op < worst) {
				worst = e.Msg.Op
			}
		}
	}
	return worst, n[worst]
}
