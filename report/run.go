package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// SeedWords say whose seed the runs of doc had: "seed 3", or that they
// drew no jitter (RunDoc.NoJitter).
func (doc *RunDoc) SeedWords() string {
	if doc.NoJitter {
		return lang.T("run.no_seed")
	}
	return lang.Tf("run.seed", map[string]any{"Seed": doc.Seed})
}

// RunSchema identifies the JSON document of `once run`. It changes only
// when fields are removed or change meaning; new fields may appear (the
// outcome classification came as run_outcome, guarantee and ops[].outcome).
const RunSchema = "once.run/v1"

// RunDoc is the JSON contract of `once run --format json`.
type RunDoc struct {
	Schema   string `json:"schema"`
	Scenario string `json:"scenario"`
	Seed     uint64 `json:"seed"`
	// NoJitter: the runs drew no jitter (a replayed plan with no seed
	// line), so Seed is no run's seed: --seed 0 would not repeat them.
	NoJitter bool              `json:"no_jitter,omitempty"`
	Ops      int               `json:"ops"`
	Faults   scenarios.Faults  `json:"fault_profile"`
	Params   map[string]string `json:"params"`
	// OutcomeWords name none, once and many effects in the user's words
	// (the scenario's, or generic ones).
	OutcomeWords OutcomeWordsDoc `json:"outcome_words"`
	Results      []RunResult     `json:"results"`
	// Headlines are the scenario's headline rows (expect rows marked
	// headline: a semantics with a --set or other faults) that the default
	// run shows beside the semantics, each with its row label and note.
	Headlines []RunResult `json:"headline_rows,omitempty"`
}

// OutcomeWordsDoc is the JSON form of a scenario's outcome words.
type OutcomeWordsDoc struct {
	None string `json:"none"`
	Once string `json:"once"`
	Many string `json:"many"`
	// Partial and NoneOK: see scenarios.OutcomeWords (the Two Generals'
	// "one attacked alone", and nobody attacking as agreement).
	Partial string `json:"partial,omitempty"`
	NoneOK  bool   `json:"none_ok,omitempty"`
	// Party is whose outcome the words tell ("for the generals"), empty
	// for the customer's.
	Party string `json:"party,omitempty"`
}

// Words are the document's outcome words as the scenario gave them.
func (d OutcomeWordsDoc) Words() scenarios.OutcomeWords {
	return scenarios.OutcomeWords{None: d.None, Once: d.Once, Many: d.Many, Partial: d.Partial, NoneOK: d.NoneOK, Party: d.Party}
}

// RunResult is one semantics' outcome.
type RunResult struct {
	Semantics   string `json:"semantics"`
	Alias       string `json:"alias"`
	Row         string `json:"row,omitempty"`  // headline rows: "idem write=publish-then-commit"
	Note        string `json:"note,omitempty"` // headline rows: what the row shows
	Promise     string `json:"promise"`
	Operations  int    `json:"operations"`
	Lost        int    `json:"lost"`
	ExactlyOnce int    `json:"exactly_once"`
	Duplicated  int    `json:"duplicated"`
	MaxEffects  int32  `json:"max_effects"`
	PromiseHeld *bool  `json:"promise_held"` // null when unknown: the run did not finish
	// Outcome says in the user's words what the operations came to:
	// "4 charged once ✓ · 1 charged twice ✗", "1 charged once ✓ · 2
	// refused as designed ✓" (RunOutcome.Text).
	Outcome string `json:"outcome"`
	// RunOutcome is the outcome classification of the run (computed in
	// sim, see sim.RunOutcome): how it ended, the invariants it violated,
	// the operations per outcome.
	RunOutcome RunOutcomeDoc `json:"run_outcome"`
	// Guarantee is whether the semantics' own promise held, invariants
	// apart: "held", "violated" or "unknown". Status folds the
	// invariants in.
	Guarantee string `json:"guarantee"`
	// Framing is the one-line framing in the reader's language (see
	// FramingLine), for the text report.
	Framing string `json:"-"`

	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
	// Reason is Why as data, for the text in the reader's language.
	Reason sim.Reason `json:"-"`
	// NoteText is Note in the reader's language, for the text report.
	NoteText  string          `json:"-"`
	Finished  bool            `json:"finished"`
	End       string          `json:"end"`
	Events    int             `json:"events"`
	EndTimeMs int64           `json:"end_time_ms"`
	Ops       []OpDoc         `json:"ops"`
	Faults    sim.FaultCounts `json:"faults"`
	// FaultPlan names every fault that hit the run by the identity of
	// what it hit, as plan lines. Faults are keyed by identity, so every
	// semantics of one seed lists the same fault wherever the message it
	// targets exists.
	FaultPlan   []string       `json:"fault_plan"`
	Invariants  []InvariantDoc `json:"invariants,omitempty"`
	Metrics     []MetricDoc    `json:"metrics,omitempty"`
	TraceDigest string         `json:"trace_digest"`
	Replay      string         `json:"replay"`
	// Counterexample is the violation shrunk to a minimal set of faults
	// (only with --check, only when violated).
	Counterexample *Counterexample `json:"counterexample,omitempty"`
	// Liveness is the verdict of the run's liveness phase (once run
	// --faults-until); absent when the run had none.
	Liveness *LivenessDoc `json:"liveness,omitempty"`
	// Live says where a once live run ran (nil for a simulated one).
	Live *LiveDoc `json:"live,omitempty"`
}

// LiveDoc is what a once live run was run against: its evidence names
// the service it judged, not the simulator's.
type LiveDoc struct {
	// Mode is "service" (once's own payment service process) or
	// "target" (your service at Target).
	Mode     string `json:"mode"`
	Target   string `json:"target,omitempty"`   // --target, its password masked
	Provider string `json:"provider,omitempty"` // the provider's URL your service charges at
	// ProviderMode is the card provider's behaviour in the run: plain
	// (no key support), lookup (answers GET /charges/lookup by key) or
	// idempotent (also deduplicates charges by key).
	ProviderMode string `json:"provider_mode"`
	RestartCmd   string `json:"restart_cmd,omitempty"`
	Database     string `json:"database"` // sqlite or postgres
}

// OpDoc is one operation's ledger line.
type OpDoc struct {
	Op                int32   `json:"op"`
	Attempts          int32   `json:"attempts"`
	Deliveries        int32   `json:"deliveries"`
	Effects           int32   `json:"effects"`
	SinkEffects       []int32 `json:"sink_effects,omitempty"` // per observed sink, when there are several
	DistinctResponses int32   `json:"distinct_responses"`
	// EffectValues are the values of the operation's effects on the
	// observed sinks, in order: the transaction ids of its charges.
	EffectValues []int64 `json:"effect_values,omitempty"`
	Verdict      string  `json:"verdict"`
	// Outcome is what the operation came to for the customer (a
	// sim.OpOutcome): "lost", "exactly-once", "duplicated", "refused",
	// "not-started", "pending" or "partial".
	Outcome string `json:"outcome"`
}

// InvariantDoc is one scenario invariant's verdict.
type InvariantDoc struct {
	Name      string `json:"name"`
	Held      bool   `json:"held"`
	Violation string `json:"violation,omitempty"`
	// Detail is Violation as data, for the text in the reader's language.
	Detail sim.Violation `json:"-"`
}

// MetricDoc is one scenario metric's value at the end of the run.
type MetricDoc struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
}

// Run is one semantics' outcome with the command that replays it.
type Run struct {
	Outcome *sim.Outcome
	Replay  string
	Shrunk  *Counterexample // the violation shrunk to minimal faults (run --check)
	// FaultPlan names the faults that hit the run, as plan lines.
	FaultPlan []string
	// Effects lists each operation's effect values (see EffectValues);
	// nil when the run kept no trace.
	Effects map[sim.OpID][]int64
	// Row and Note label a headline row (see RunDoc.Headlines).
	Row, Note string
	// NoteText is Note in the reader's language (empty: Note).
	NoteText string
	// MetricUnits are the units of the run's metrics, by name (the
	// catalog's, roles.Catalog.MetricUnit).
	MetricUnits map[string]string
	// Sinks names the observed sinks (see SinkNames), for an operation
	// done on some of them only; nil: unnamed.
	Sinks []string
	// Liveness is the verdict of the run's liveness phase; nil: none.
	Liveness *sim.Liveness
	// Live says where a once live run ran; nil for a simulated one.
	Live *LiveDoc
}

// NewRunDoc assembles the JSON document.
func NewRunDoc(scenario string, seed uint64, set scenarios.Settings, params []string, words scenarios.OutcomeWords, runs []Run) RunDoc {
	w := OutcomeWords(words)
	doc := RunDoc{Schema: RunSchema, Scenario: scenario, Seed: seed, Ops: set.Ops, Faults: set.Faults, Params: map[string]string{},
		OutcomeWords: OutcomeWordsDoc{None: w.None, Once: w.Once, Many: w.Many, Partial: w.Partial, NoneOK: w.NoneOK, Party: w.Party}}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		doc.Params[k] = v
	}
	for _, r := range runs {
		doc.Results = append(doc.Results, newRunResult(r, w))
	}
	return doc
}

// AddHeadlines adds the headline rows to doc.
func (doc *RunDoc) AddHeadlines(words scenarios.OutcomeWords, runs []Run) {
	w := OutcomeWords(words)
	for _, r := range runs {
		doc.Headlines = append(doc.Headlines, newRunResult(r, w))
	}
}

func newRunResult(r Run, w scenarios.OutcomeWords) RunResult {
	o := r.Outcome
	res := RunResult{
		Semantics: o.Semantics.String(), Alias: o.Semantics.Alias(), Promise: o.Semantics.Promise().String(),
		Operations: len(o.Ops), Lost: o.Count(sim.Lost), ExactlyOnce: o.Count(sim.ExactlyOnce),
		Duplicated: o.Count(sim.Duplicated), MaxEffects: o.MaxEffects(),
		PromiseHeld: promiseHeld(o.Status), Status: o.Status.String(), Why: o.Why, Reason: o.Reason,
		Finished: o.Finished(), End: o.End.String(), Events: o.Events, EndTimeMs: int64(o.EndTime),
		Faults: o.Faults, TraceDigest: DigestString(o.Digest), Replay: r.Replay, Counterexample: r.Shrunk,
		Row: r.Row, Note: r.Note, NoteText: r.NoteText,
		FaultPlan: append([]string{}, r.FaultPlan...), Live: r.Live,
		Guarantee: guaranteeOf(o).String(), Framing: FramingLine(o, w, r.Sinks),
	}
	res.Liveness = livenessDoc(r.Liveness)
	ro := o.RunOutcome()
	res.RunOutcome = RunOutcomeDoc{Run: ro.End.String(), Invariants: ro.Invariants, Counts: CountsOf(ro)}
	res.RunOutcome.Text = CustomerText(w, res.RunOutcome.Counts, o.MaxEffects())
	res.Outcome = res.RunOutcome.Text
	for _, op := range o.Ops {
		res.Ops = append(res.Ops, OpDoc{
			Op: int32(op.Op), Attempts: op.Attempts, Deliveries: op.Deliveries, Effects: op.Effects,
			SinkEffects: op.SinkEffects, DistinctResponses: op.DistinctOutcomes, Verdict: op.Verdict.String(),
			EffectValues: r.Effects[op.Op], Outcome: op.Class().String(),
		})
	}
	for _, inv := range o.Invariants {
		res.Invariants = append(res.Invariants, InvariantDoc{Name: inv.Name, Held: inv.Violation == "", Violation: inv.Violation, Detail: inv.Detail})
	}
	for _, m := range o.Metrics {
		res.Metrics = append(res.Metrics, MetricDoc{Name: m.Name, Value: m.Value, Unit: r.MetricUnits[m.Name]})
	}
	return res
}

// promiseHeld is the JSON answer to "did the promise hold?": true, false,
// or null when it is unknown (a run cut by a budget shows neither).
func promiseHeld(s sim.Status) *bool {
	if s == sim.Unknown {
		return nil
	}
	held := s == sim.Held
	return &held
}

// StatusText is a run's verdict as every text view prints it: "held",
// "violated", or "unknown (unfinished: time budget exhausted)" for a run
// cut by a budget.
func StatusText(o *sim.Outcome) string {
	if o.Status == sim.Unknown && !o.Finished() {
		return unfinishedText(o.Status.String(), o.End.String())
	}
	return o.Status.String()
}

func unfinishedText(status, end string) string {
	if lang.Current() == lang.English {
		return status + " (unfinished: " + end + ")" // the English reports' wording, unchanged
	}
	return lang.Tf("claim.unfinished", map[string]any{"Status": lang.Word("verdict", status), "End": lang.Word("fault", end)})
}

// DigestString formats a trace digest as 16 hex digits.
func DigestString(d sim.Digest) string { return fmt.Sprintf("%016x", uint64(d)) }

// WriteJSON writes v as indented JSON with a trailing newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

var (
	styleTitle    = lipgloss.NewStyle().Bold(true)
	styleDim      = lipgloss.NewStyle().Faint(true)
	styleBad      = lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	styleGood     = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleWarn     = lipgloss.NewStyle().Foreground(lipgloss.Color("3"))
	styleCell     = lipgloss.NewStyle().Padding(0, 1)
	styleBorder   = lipgloss.NewStyle().Faint(true)
	styleHeadCell = lipgloss.NewStyle().Padding(0, 1).Bold(true)
)

func newTable(headers ...string) *table.Table {
	return table.New().Border(lipgloss.NormalBorder()).BorderStyle(styleBorder).Headers(headers...).
		StyleFunc(func(row, col int) lipgloss.Style {
			if row == table.HeaderRow {
				return styleHeadCell
			}
			return styleCell
		})
}

// WriteRunText writes the human report of `once run`: a summary table with
// one row per semantics, then each semantics' per-operation ledger, then
// every violated promise with the command that replays it. Colours are
// ANSI; the caller's writer decides whether they survive (NO_COLOR, pipes).
func WriteRunText(w io.Writer, doc RunDoc, summary string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n", styleTitle.Render(doc.Scenario), summary)
	fmt.Fprintf(&b, "%s\n\n", styleDim.Render(fmt.Sprintf("%s · %s · %s",
		doc.SeedWords(), lang.N("count.operations", doc.Ops), strings.Join(FaultParts(doc.Faults, "", false), " · "))))

	b.WriteString(summaryTable(doc))
	b.WriteString("\n")

	for _, r := range doc.Results {
		fmt.Fprintf(&b, "\n%s  %s\n", styleTitle.Render(r.Semantics), styleDim.Render(fmt.Sprintf("%s · %s · %s · %s",
			r.Promise, lang.N("count.events", r.Events), lang.Tf("run.ended", map[string]any{"End": lang.Word("end", r.End), "Time": TimeWords(sim.Time(r.EndTimeMs))}),
			lang.Tf("run.trace", map[string]any{"Digest": r.TraceDigest}))))
		b.WriteString(ledgerTable(r, doc.OutcomeWords.Words()))
		for _, inv := range r.Invariants {
			if !inv.Held {
				fmt.Fprintf(&b, "%s %s: %s — %s\n", lang.T("run.invariant"), inv.Name, styleBad.Render(lang.Word("verdict", "violated")), lang.Violation(inv.Detail))
			}
		}
		fmt.Fprintf(&b, "%s\n", r.Framing)
		if r.Liveness != nil {
			style := styleGood
			if !r.Liveness.Settled {
				style = styleBad
			}
			fmt.Fprintf(&b, "%s\n", style.Render(LivenessLine(r.Liveness)))
		}
		if r.Why != "" {
			style := styleBad
			if r.Status == "unknown" {
				style = styleWarn
			}
			fmt.Fprintf(&b, "%s %s\n", style.Render(lang.Tf("guarantee.verdict", map[string]any{"Status": lang.Word("verdict", r.Status)})), lang.Reason(r.Reason))
			if c := r.Counterexample; c != nil {
				fmt.Fprintf(&b, "%s %s\n", styleDim.Render(lang.T("run.shrunk")), c.Text())
				fmt.Fprintf(&b, "%s\n", styleDim.Render(lang.Tf("run.minimal", map[string]any{"Minimal": len(c.Faults), "Found": c.FoundFaults})))
				for _, f := range c.Faults {
					fmt.Fprintf(&b, "  %s\n", f)
				}
			}
			fmt.Fprintf(&b, "%s %s\n", styleDim.Render(lang.T("run.replay")), r.Replay)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func faultSummary(f sim.FaultCounts) string {
	parts := FaultCountParts(f)
	add := func(n int, name string) {
		if n > 0 {
			parts = append(parts, FaultCount(n, name))
		}
	}
	add(f.Partition, lang.Word("fault", "cut"))
	add(f.Down, lang.Word("fault", "to-down"))
	if len(parts) == 0 {
		return lang.T("fault.none")
	}
	return strings.Join(parts, ", ")
}

func ffmt(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
