package live

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Variant is one scenario, semantics and --set of the agreement table.
type Variant struct {
	Scenario  string
	Semantics sim.Semantics
	Params    map[string]string
}

func (v Variant) String() string {
	var sets []string
	for k, val := range v.Params {
		sets = append(sets, k+"="+val)
	}
	sort.Strings(sets)
	s := v.Scenario + " " + v.Semantics.Alias()
	if len(sets) > 0 {
		s += " " + strings.Join(sets, ",")
	}
	return s
}

// Variants are the supported scenarios with their bug and their fix; a
// bug that is the scenario's default is named all the same (lock=none).
// An entry whose name starts with -- sets a fault of the run, not a
// parameter ("--slow": "0.1", variantfaults.go).
func Variants() []Variant {
	p := func(k, v string) map[string]string { return map[string]string{k: v} }
	return []Variant{
		{"double-billing", sim.AtLeastOnce, nil},
		{"double-billing", sim.Idempotent, nil},
		{"new-key-per-retry", sim.Idempotent, p("key", "per-attempt")},
		{"new-key-per-retry", sim.Idempotent, p("key", "per-operation")},
		{"key-reuse-different-payload", sim.Idempotent, nil},
		{"key-reuse-different-payload", sim.Idempotent, p("reuse", "overwrite")},
		{"mark-after-effect", sim.Idempotent, p("mark", "after")},
		{"mark-after-effect", sim.Idempotent, p("mark", "before")},
		{"in-memory-dedup-restart", sim.Idempotent, p("store", "memory")},
		{"in-memory-dedup-restart", sim.Idempotent, p("store", "durable")},
		{"concurrent-same-key", sim.Idempotent, p("lock", "none")},
		{"concurrent-same-key", sim.Idempotent, p("lock", "unique-insert")},
		{"store-outage-fail-closed", sim.Idempotent, p("on-store-down", "fail-open")},
		{"store-outage-fail-closed", sim.Idempotent, p("on-store-down", "fail-closed")},
		{"stuck-processing-lease", sim.Idempotent, p("lease", "0")},
		{"stuck-processing-lease", sim.Idempotent, p("lease", "1s")},
		{"ambiguous-external-outcome", sim.Idempotent, p("on-timeout", "retry-new-key")},
		{"ambiguous-external-outcome", sim.Idempotent, p("on-timeout", "reconcile")},
		{"ambiguous-external-outcome", sim.Idempotent, map[string]string{"provider": "lookup", "--slow": "0.1"}},
		{"ambiguous-external-outcome", sim.Idempotent, map[string]string{"provider": "idempotent", "--slow": "0.1"}},
		{"key-scoped-to-user", sim.Idempotent, p("key-scope", "global")},
		{"key-scoped-to-user", sim.Idempotent, p("key-scope", "user")},
	}
}

// Disagreement is one operation whose effects differ between the
// simulator and live, with the evidence that explains it.
type Disagreement struct {
	Variant  Variant
	DB       string
	Seed     uint64
	Op       int
	Sim      sim.OpResult
	Live     sim.OpResult
	SimEnd   sim.Time
	LiveEnd  sim.Time
	SimFault sim.FaultCounts
	LiveFlt  sim.FaultCounts
	// Evidence is where the two runs part, from their traces.
	Evidence Evidence
}

// AgreementRow is one variant on one database.
type AgreementRow struct {
	Variant          Variant
	DB               string
	Runs, Ops, Agree int
	VerdictsAgree    int
}

// Agreement compares live runs with the simulator, variant by variant,
// seed by seed, operation by operation (its effects), on SQLite and, if
// dsn is not empty, on PostgreSQL.
type Agreement struct {
	Binary string
	DSN    string
	// NoSQLite leaves SQLite out: PostgreSQL (DSN) only.
	NoSQLite bool
	Tick     time.Duration
	Seeds    int
	// Jobs is how many rows (a variant on one database) run at once
	// (default 1); each row's seeds run one after the other.
	Jobs int
	Log  io.Writer

	Rows          []AgreementRow
	Disagreements []Disagreement
}

// Run makes every comparison.
func (a *Agreement) Run(ctx context.Context, variants []Variant) error {
	var dbs []string
	if !a.NoSQLite {
		dbs = append(dbs, "")
	}
	if a.DSN != "" {
		dbs = append(dbs, a.DSN)
	}
	type job struct {
		v   Variant
		dsn string
	}
	var jobs []job
	for _, v := range variants {
		if _, err := scenarios.Lookup(v.Scenario); err != nil {
			return err
		}
		for _, dsn := range dbs {
			jobs = append(jobs, job{v, dsn})
		}
	}
	rows := make([]AgreementRow, len(jobs))
	dis := make([][]Disagreement, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for w := 0; w < max(a.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i], dis[i], errs[i] = a.row(ctx, jobs[i].v, jobs[i].dsn, &logMu)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range jobs {
		if errs[i] != nil {
			return errs[i]
		}
		a.Rows = append(a.Rows, rows[i])
		a.Disagreements = append(a.Disagreements, dis[i]...)
	}
	return nil
}

// row compares one variant on one database, seed by seed.
func (a *Agreement) row(ctx context.Context, v Variant, dsn string, logMu *sync.Mutex) (AgreementRow, []Disagreement, error) {
	row := AgreementRow{Variant: v, DB: dbName(dsn)}
	var dis []Disagreement
	sc, err := scenarios.Lookup(v.Scenario)
	if err != nil {
		return row, nil, err
	}
	set, err := v.settings(sc)
	if err != nil {
		return row, nil, err
	}
	for seed := uint64(1); seed <= uint64(a.Seeds); seed++ {
		var simTrace, liveTrace sim.Trace
		simulated, err := runs.Outcome(sc, set, sim.NewRandom(seed), &simTrace)
		if err != nil {
			return row, nil, fmt.Errorf("%s seed %d: %w", v, seed, err)
		}
		cfg, err := sc.Config(set)
		if err != nil {
			return row, nil, err
		}
		prof := set.Faults
		real, err := Run(ctx, Options{Config: cfg, Faults: &prof, Chooser: sim.NewRandom(seed), DSN: dsn,
			Binary: a.Binary, Tick: a.Tick, Deadline: time.Minute, Trace: &liveTrace})
		if err != nil {
			return row, nil, fmt.Errorf("%s seed %d on %s: %w", v, seed, row.DB, err)
		}
		row.Runs++
		if real.Status == simulated.Status {
			row.VerdictsAgree++
		}
		var ev *Evidence
		for i := range simulated.Ops {
			row.Ops++
			if i < len(real.Ops) && real.Ops[i].Effects == simulated.Ops[i].Effects {
				row.Agree++
				continue
			}
			if ev == nil {
				e := compare(cfg.Topology, simTrace.Events, liveTrace.Events)
				ev = &e
			}
			d := Disagreement{Variant: v, DB: row.DB, Seed: seed, Op: i + 1, Sim: simulated.Ops[i],
				SimEnd: simulated.EndTime, LiveEnd: real.EndTime, SimFault: simulated.Faults, LiveFlt: real.Faults, Evidence: *ev}
			if i < len(real.Ops) {
				d.Live = real.Ops[i]
			}
			dis = append(dis, d)
		}
		if a.Log != nil {
			logMu.Lock()
			fmt.Fprintf(a.Log, "%s on %s seed %d: %d/%d ops agree so far\n", v, row.DB, seed, row.Agree, row.Ops)
			logMu.Unlock()
		}
	}
	return row, dis, nil
}

func dbName(dsn string) string {
	if dsn == "" {
		return "SQLite"
	}
	return "PostgreSQL"
}

// Total returns the operations compared and those that agree.
func (a *Agreement) Total() (ops, agree int) {
	for _, r := range a.Rows {
		ops += r.Ops
		agree += r.Agree
	}
	return ops, agree
}

// WriteMarkdown writes the report: the table, the total, every
// disagreement with its seed, operation and evidence.
func (a *Agreement) WriteMarkdown(w io.Writer, how string) {
	ops, agree := a.Total()
	fmt.Fprintf(w, "# Live mode against the simulator: per-operation agreement\n\n")
	fmt.Fprintf(w, "Written by `%s`. Every variant runs in the simulator and live on the same seeds (%d each), "+
		"with %s of real time per millisecond of scenario time; an operation agrees when its effects (rows of `charges`, "+
		"charges in the simulator) are equal.\n\n", how, a.Seeds, a.Tick)
	fmt.Fprintf(w, "**%d of %d operations agree (%.2f %%).**\n\n", agree, ops, Pct(agree, ops))
	fmt.Fprintf(w, "Live follows the simulator's schedule by mechanism, not by luck: every fault is the Decider's keyed "+
		"decision (the simulator's, for the same message); delays, timeouts, outages and restarts wait on the run's virtual "+
		"clock, which stands still while service code, the gateway or a starting service process works (a step takes no time "+
		"in the simulator) and takes back a timer's late firing; the key store steps of the checked service take turns in "+
		"the simulator's delivery order, and a preempted request waits at a barrier (lock=none's race). What is left to "+
		"real time is the few microseconds between those points.\n\n")
	fmt.Fprintf(w, "| variant | database | runs | verdicts agree | operations | agree | %% |\n|---|---|---|---|---|---|---|\n")
	for _, r := range a.Rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %.1f |\n", r.Variant, r.DB, r.Runs, r.VerdictsAgree, r.Ops, r.Agree, Pct(r.Agree, r.Ops))
	}
	fmt.Fprintf(w, "\n## Disagreements\n\n")
	if len(a.Disagreements) == 0 {
		fmt.Fprintf(w, "None.\n")
		return
	}
	fmt.Fprintf(w, "Each with the evidence: attempts and deliveries of the operation in both worlds, the faults of the run, "+
		"the run's end time, and from the two traces where the runs part — the first event only the simulator has, the first only "+
		"live has — and the event both have whose time moved most before that point, sim → live. Times are ticks (virtual "+
		"milliseconds) from the run's start.\n\n")
	fmt.Fprintf(w, "| variant | database | seed | op | effects sim / live | attempts sim / live | deliveries sim / live | faults sim / live | end sim / live | only in sim | only live | largest shift before |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range a.Disagreements {
		fmt.Fprintf(w, "| %s | %s | %d | op-%d | %d / %d | %d / %d | %d / %d | %d / %d | %d / %d | %s | %s | %s |\n", d.Variant, d.DB, d.Seed, d.Op,
			d.Sim.Effects, d.Live.Effects, d.Sim.Attempts, d.Live.Attempts, d.Sim.Deliveries, d.Live.Deliveries,
			d.SimFault.Total(), d.LiveFlt.Total(), d.SimEnd, d.LiveEnd, OrDash(d.Evidence.OnlySim), OrDash(d.Evidence.OnlyLive), OrDash(d.Evidence.Shift))
	}
}

// OrDash is s, or "—" in a table cell when s is empty.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// Pct is a as a percentage of b; 0 when b is 0.
func Pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
