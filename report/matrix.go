package report

import (
	"charm.land/lipgloss/v2"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// MatrixSchema identifies the JSON document of `once matrix`.
const MatrixSchema = "once.matrix/v1"

// MatrixDoc is the JSON contract of `once matrix --format json`: one cell
// per expectation row of each scenario, each run over seeds 1..Seeds.
type MatrixDoc struct {
	Schema string `json:"schema"`
	Seeds  int    `json:"seeds"`
	// Swarm is true when every seed drew its own fault profile (once
	// matrix --swarm): the rates are over profiles, not one setting.
	Swarm bool         `json:"swarm,omitempty"`
	Cells []MatrixCell `json:"cells"`
}

// MatrixCell is one expectation row of one scenario over every seed: how
// often a run lost or duplicated an operation, with 95% Wilson intervals,
// and whether what the scenario declares held. Rates are fractions of
// runs, rounded to 4 places; the counts they come from are given too.
type MatrixCell struct {
	Scenario  string            `json:"scenario"`
	Row       string            `json:"row"`               // the row's label: "idem store=memory"
	Changes   string            `json:"changes,omitempty"` // faults or ops unlike the scenario's defaults: "crash=0.2"
	Semantics string            `json:"semantics"`         // long id: at-least-once+idempotent
	Alias     string            `json:"alias"`
	Params    map[string]string `json:"params"` // the row's parameters on top of the scenario's defaults
	Ops       int               `json:"ops"`
	Faults    scenarios.Faults  `json:"fault_profile"`
	Note      string            `json:"note,omitempty"`
	// NoteText is Note in the reader's language, for the text and
	// Markdown reports (empty: Note).
	NoteText           string     `json:"-"`
	Runs               int        `json:"runs"`
	Finished           int        `json:"finished"`
	RunsUnfinished     int        `json:"runs_unfinished"`   // runs cut by a budget: Runs - Finished
	RunsWithLost       int        `json:"runs_with_lost"`    // finished runs only; a designed refusal is not a loss
	RunsWithRefused    int        `json:"runs_with_refused"` // finished runs with an operation refused as designed
	RunsWithDuplicated int        `json:"runs_with_duplicated"`
	RunsWithViolation  int        `json:"runs_with_violation"`
	LostRate           float64    `json:"lost_rate"`
	LostCI95           [2]float64 `json:"lost_ci95"`
	RefusedRate        float64    `json:"refused_rate"`
	RefusedCI95        [2]float64 `json:"refused_ci95"`
	DuplicatedRate     float64    `json:"duplicated_rate"`
	DuplicatedCI95     [2]float64 `json:"duplicated_ci95"`
	ViolationRate      float64    `json:"violation_rate"` // runs where an invariant broke
	ViolationCI95      [2]float64 `json:"violation_ci95"`
	UnfinishedRate     float64    `json:"unfinished_rate"`
	UnfinishedCI95     [2]float64 `json:"unfinished_ci95"`
	EffectsPerOp       float64    `json:"effects_per_op"`
	Expected           string     `json:"expected"`    // the declared claims: "≥1 dup"
	Expectation        string     `json:"expectation"` // held, failed, or unknown (runs cut by a budget decide it)
	// ExpectationHeld is true or false, or null when Expectation is
	// unknown: neither held nor broken.
	ExpectationHeld *bool  `json:"expectation_held"`
	FailedClaim     string `json:"failed_claim"`            // "" unless failed
	UnknownClaim    string `json:"unknown_claim,omitempty"` // the claim unfinished runs left unknown
	// Replay reproduces the first run that broke the failed claim, or the
	// first unfinished run of an unknown one.
	Replay string `json:"replay,omitempty"`
	// SwarmProfile is the fault profile of the replayed seed in a swarm
	// (sim.SwarmProfile's words), absent otherwise.
	SwarmProfile string `json:"swarm_profile,omitempty"`
	// RateBound, in a swarm only, says why the row ran at its own fault
	// rates instead of a profile per seed: its claims hold at those rates
	// and not at any (the scenario's rate-bound line).
	RateBound string `json:"rate_bound,omitempty"`
	// RateBoundText is RateBound in the reader's language (empty:
	// RateBound).
	RateBoundText string `json:"-"`

	// RunsNeverDone are the finished runs with an operation that never
	// completes (told "in progress" until the client gave up; they are in
	// RunsWithLost too), with their rate and its interval (all absent when
	// there are none).
	RunsNeverDone      int         `json:"runs_never_completing,omitempty"`
	NeverCompletesRate float64     `json:"never_completes_rate,omitempty"`
	NeverCompletesCI95 *[2]float64 `json:"never_completes_ci95,omitempty"`

	// Liveness is the row's liveness verdict over its seeds (once matrix
	// --faults-until); absent when it had no liveness phase.
	Liveness *BatchLiveness `json:"liveness,omitempty"`
}

// livenessEntries are the cells as their liveness lines name them.
func livenessEntries(cells []MatrixCell) []livenessEntry {
	es := make([]livenessEntry, len(cells))
	for i := range cells {
		c := &cells[i]
		es[i] = livenessEntry{name: c.Scenario + " " + c.label(), runs: c.Runs, l: c.Liveness}
	}
	return es
}

// Held reports whether the cell's expectation held.
func (c *MatrixCell) Held() bool { return c.Expectation == "held" }

// SetExpectation records the verdict ("held", "failed" or "unknown") and
// the claim that decided it.
func (c *MatrixCell) SetExpectation(verdict, claim string) {
	c.Expectation, c.FailedClaim, c.UnknownClaim, c.ExpectationHeld = verdict, "", "", nil
	switch verdict {
	case "held":
		held := true
		c.ExpectationHeld = &held
	case "failed":
		held := false
		c.ExpectationHeld, c.FailedClaim = &held, claim
	default:
		c.UnknownClaim = claim
	}
}

// NewMatrixCell fills the measured part of a cell from a tally.
func NewMatrixCell(t *scenarios.Tally) MatrixCell {
	c := MatrixCell{
		Runs: t.Runs, Finished: t.Finished, RunsUnfinished: t.Runs - t.Finished, RunsWithLost: t.WithLost, RunsWithRefused: t.WithRefused, RunsWithDuplicated: t.WithDup,
		RunsWithViolation: t.InvViolated,
	}
	c.UnfinishedRate, c.UnfinishedCI95 = rate(c.RunsUnfinished, t.Runs)
	c.LostRate, c.LostCI95 = rate(t.WithLost, t.Runs)
	c.RefusedRate, c.RefusedCI95 = rate(t.WithRefused, t.Runs)
	if t.NeverDone > 0 {
		r, ci := rate(t.NeverDone, t.Runs)
		c.RunsNeverDone, c.NeverCompletesRate, c.NeverCompletesCI95 = t.NeverDone, r, &ci
	}
	c.DuplicatedRate, c.DuplicatedCI95 = rate(t.WithDup, t.Runs)
	c.ViolationRate, c.ViolationCI95 = rate(t.InvViolated, t.Runs)
	if t.Ops > 0 {
		c.EffectsPerOp = round4(float64(t.Effects) / float64(t.Ops))
	}
	return c
}

// rate returns k/n and its 95% Wilson interval, rounded for display.
func rate(k, n int) (float64, [2]float64) {
	lo, hi := Wilson95(k, n)
	r := 0.0
	if n > 0 {
		r = float64(k) / float64(n)
	}
	return round4(r), [2]float64{round4(lo), round4(hi)}
}

func round4(f float64) float64 { return math.Round(f*10_000) / 10_000 }

// pct renders a rate with its interval: "12.5% (8.4–18.1)", in Romanian
// and Russian "12,5 % (8,4–18,1)".
func pct(r float64, ci [2]float64) string {
	return fmt.Sprintf("%s (%s–%s)", pctSign(r), pctNum(ci[0]), pctNum(ci[1]))
}

// pctNum is a rate as a percentage without its sign, in the language's
// decimal form: "12.5", "12,5".
func pctNum(f float64) string { return lang.Decimal(strconv.FormatFloat(f*100, 'f', 1, 64)) }

// pctSign is a rate as a percentage with its sign: "12.5%", "12,5 %".
func pctSign(f float64) string { return lang.Percent(strconv.FormatFloat(f*100, 'f', 1, 64)) }

// label is the row as displayed: its label and what else it changes.
func (c *MatrixCell) label() string {
	if c.Changes == "" {
		return c.Row
	}
	return c.Row + " · " + c.Changes
}

func heldText(c *MatrixCell) string {
	switch c.Expectation {
	case "held":
		return asDeclared(c.Expected)
	case "failed":
		return lang.Tf("matrix.failed_claim", map[string]any{"Claim": ClaimsShort(c.FailedClaim)})
	}
	return lang.Tf("matrix.unknown_claim", map[string]any{"Claim": ClaimsShort(c.UnknownClaim)})
}

// asDeclared says what a held expectation is, so that no bare "held"
// sits beside a failure row: a row that declares a failure "fails" (as
// declared: as its bug should); any other "holds".
func asDeclared(expected string) string {
	if declaresFailure(expected) {
		return lang.T("matrix.fails_as_bug")
	}
	return lang.T("matrix.holds_as_fix")
}

// declaresFailure says whether a row's claims declare a failure: dup,
// lost, violation or never-completes.
func declaresFailure(expected string) bool {
	for _, f := range strings.Fields(expected) {
		switch c, _ := scenarios.ParseClaim(f); c {
		case scenarios.ClaimDuplicates, scenarios.ClaimLosses, scenarios.ClaimViolation, scenarios.ClaimNeverDone:
			return true
		}
	}
	return false
}

// note is the cell's note in the reader's language.
func (c *MatrixCell) note() string {
	if c.NoteText != "" {
		return c.NoteText
	}
	return c.Note
}

// failureLine says why a cell failed, or why it is unknown, and how to
// see it.
func failureLine(l lang.Lang, c *MatrixCell) string {
	if c.Expectation == "unknown" {
		s := l.Nf("matrix.line_unknown", c.Runs, map[string]any{"Row": c.Scenario + " " + c.label(), "Expected": quoted(l, ClaimsShort(c.Expected)),
			"Claim": ClaimsShort(c.UnknownClaim), "Unfinished": c.RunsUnfinished, "Runs": c.Runs})
		if c.Replay != "" {
			s += l.Tf("matrix.line_replay", map[string]any{"Replay": c.Replay}) + c.profileText(l)
		}
		return s
	}
	data := map[string]any{"Row": c.Scenario + " " + c.label(), "Expected": quoted(l, ClaimsShort(c.Expected)), "Claim": ClaimsShort(c.FailedClaim), "Runs": c.Runs}
	if c.Replay != "" {
		return l.Tf("matrix.line_broken", data) + l.Tf("matrix.line_replay", map[string]any{"Replay": c.Replay}) + c.profileText(l)
	}
	return l.Nf("matrix.line_not_seen", c.Runs, data)
}

// anyUnfinished reports whether some cell had runs cut by a budget: only
// then do the tables show an "unfinished" column.
func anyUnfinished(cells []MatrixCell) bool {
	for i := range cells {
		if cells[i].RunsUnfinished > 0 {
			return true
		}
	}
	return false
}

// anyRefused reports whether some cell refused an operation as designed,
// or declares that it does: only then do the tables show a "refused as
// designed" column.
func anyRefused(cells []MatrixCell) bool {
	for i := range cells {
		if cells[i].RunsWithRefused > 0 || strings.Contains(cells[i].Expected, "refused") {
			return true
		}
	}
	return false
}

// anyNeverCompletes reports whether some cell left an operation that never
// completes, or declares that it does: only then does the Markdown table
// show a "never completes" column (the text table says it below).
func anyNeverCompletes(cells []MatrixCell) bool {
	for i := range cells {
		if cells[i].RunsNeverDone > 0 || strings.Contains(cells[i].Expected, "never-completes") {
			return true
		}
	}
	return false
}

// neverCompletesCI is the cell's interval of NeverCompletesRate (0–0
// when no run left an operation so).
func (c *MatrixCell) neverCompletesCI() [2]float64 {
	if c.NeverCompletesCI95 == nil {
		_, ci := rate(0, c.Runs)
		return ci
	}
	return *c.NeverCompletesCI95
}

// matrixLabelMin is the narrowest the text matrix's label column gets. A
// label wider than its column is cut with a numbered mark and printed in
// full below the table, so that no label wraps onto a line of its own
// (where it would read as a scenario).
const matrixLabelMin = 24

// tally counts the cells that failed and those left unknown.
func tally(cells []MatrixCell) (failed, unknown int) {
	for i := range cells {
		switch cells[i].Expectation {
		case "failed":
			failed++
		case "unknown":
			unknown++
		}
	}
	return failed, unknown
}

// summaryLines lists the failed cells, then the unknown ones, each under
// its heading, or says that every expectation held.
func summaryLines(l lang.Lang, cells []MatrixCell, bullet string, md bool) string {
	failed, unknown := tally(cells)
	var b strings.Builder
	for _, group := range []struct {
		verdict, heading string
		n                int
	}{
		{"failed", "matrix.failed", failed},
		{"unknown", "matrix.unknown", unknown},
	} {
		if group.n == 0 {
			continue
		}
		heading := l.Nf(group.heading, len(cells), map[string]any{"N": group.n})
		switch {
		case md:
			fmt.Fprintf(&b, "\n**%s**\n\n", heading)
		case group.verdict == "failed":
			fmt.Fprintf(&b, "\n%s\n", styleBad.Render(heading))
		default:
			fmt.Fprintf(&b, "\n%s\n", styleWarn.Render(heading))
		}
		for i := range cells {
			if c := &cells[i]; c.Expectation == group.verdict {
				line := failureLine(l, c)
				if md {
					line = mdCell(line)
				}
				fmt.Fprintf(&b, "%s%s\n", bullet, line)
			}
		}
	}
	return b.String()
}

// ownRatesLines lists the rows a swarm ran at their own rates, each with
// the reason its claims hold at those rates only.
func ownRatesLines(b *strings.Builder, l lang.Lang, cells []MatrixCell, bullet string, md bool) {
	first := true
	for i := range cells {
		c := &cells[i]
		if c.RateBound == "" {
			continue
		}
		if first {
			first = false
			if md {
				fmt.Fprintf(b, "\n**%s**\n\n", l.T("matrix.own_rates"))
			} else {
				fmt.Fprintf(b, "\n%s\n", styleDim.Render(l.T("matrix.own_rates")))
			}
		}
		reason := c.RateBoundText
		if reason == "" {
			reason = c.RateBound
		}
		line := l.Tf("matrix.line_own_rates", map[string]any{"Row": c.Scenario + " " + c.label(), "Reason": reason})
		if md {
			line = mdCell(line)
		}
		fmt.Fprintf(b, "%s%s\n", bullet, line)
	}
}

// WriteMatrixText writes the human report of `once matrix`: one table row
// per expectation row, then the expectations that failed, each with the
// command that shows it.
func WriteMatrixText(w io.Writer, d MatrixDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", styleTitle.Render("matrix"),
		styleDim.Render(lang.Nf("matrix.subtitle", len(d.Cells), map[string]any{"Seeds": d.Seeds})))
	for _, line := range strings.Split(lang.T("matrix.legend"), "\n") {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(line))
	}
	if d.Swarm {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(lang.T("matrix.swarm")))
	}
	live := livenessEntries(d.Cells)
	phase := livenessPhase(live)
	if phase != nil {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(livenessPhaseLine(lang.Current(), phase)))
	}
	b.WriteString("\n")
	unfinished, refused := anyUnfinished(d.Cells), anyRefused(d.Cells)
	headers := []string{lang.T("matrix.head_row"), lang.T("matrix.head_lost"), lang.T("matrix.head_dup"), lang.T("matrix.head_broken")}
	if refused {
		headers = append(headers, lang.T("matrix.head_refused"))
	}
	if unfinished {
		headers = append(headers, lang.T("matrix.head_unfinished"))
	}
	if phase != nil {
		headers = append(headers, lang.T("batch_liveness.head"))
	}
	// the declared claims and whether the runs showed them share a
	// column, so that every label fits whole in MatrixTextWidth
	headers = append(headers, lang.T("matrix.head_effects"), lang.T("matrix.head_as_declared"))
	t := newTable(headers...)
	type cellRow struct {
		scenario string // a scenario's heading row before this one
		label    string
		rest     []string
	}
	var rows []cellRow
	widths := make([]int, len(headers)) // of every column but the label's
	for i, h := range headers {
		widths[i] = lipgloss.Width(h)
	}
	for i := range d.Cells {
		c := &d.Cells[i]
		r := cellRow{label: c.label()}
		if i == 0 || d.Cells[i-1].Scenario != c.Scenario {
			r.scenario = c.Scenario
		}
		// the declared claims, marked: the failed or unknown claim is
		// named again in the lines below the table
		expected := ClaimsShort(c.Expected)
		// a failure row says that it fails as its bug should: never a
		// bare ✓ beside it; a row that holds keeps its plain ✓ (the
		// column fits MatrixTextWidth)
		held := styleGood.Render(expected + " " + MarkGood)
		if declaresFailure(c.Expected) {
			held = styleGood.Render(expected + ": " + lang.T("matrix.fails_as_bug") + " " + MarkGood)
		}
		switch c.Expectation {
		case "failed":
			held = styleBad.Render(expected + " " + MarkBad + " " + lang.Tf("matrix.failed_claim", map[string]any{"Claim": ClaimsShort(c.FailedClaim)}))
		case "unknown":
			held = styleWarn.Render(expected + " · " + lang.Tf("matrix.unknown_claim", map[string]any{"Claim": ClaimsShort(c.UnknownClaim)}))
		}
		broken := "–"
		if c.RunsWithViolation > 0 || strings.Contains(c.Expected, "invariants") || strings.Contains(c.Expected, "violation") {
			broken = pctSign(c.ViolationRate)
		}
		r.rest = []string{pctSign(c.LostRate), pctSign(c.DuplicatedRate), broken}
		if refused {
			r.rest = append(r.rest, pctSign(c.RefusedRate))
		}
		if unfinished {
			r.rest = append(r.rest, pctSign(c.UnfinishedRate))
		}
		if phase != nil {
			r.rest = append(r.rest, unsettledText(c.Liveness, false))
		}
		r.rest = append(r.rest, lang.Decimal(strconv.FormatFloat(c.EffectsPerOp, 'f', 2, 64)), held)
		for j, v := range r.rest {
			widths[j+1] = max(widths[j+1], lipgloss.Width(v))
		}
		rows = append(rows, r)
	}
	// the label column gets what the others leave of MatrixTextWidth
	// (each cell is padded by one on each side, one border per column)
	labelWidth := MatrixTextWidth - 1
	for _, w := range widths[1:] {
		labelWidth -= w + 3
	}
	labelWidth = max(labelWidth-2-3, matrixLabelMin) // the indent and the label's own padding and border
	var notes []string                               // the labels too long for their column, in full
	for _, r := range rows {
		if r.scenario != "" {
			row := make([]string, len(headers))
			row[0] = styleTitle.Render(r.scenario)
			t.Row(row...)
		}
		label := r.label
		if utf8.RuneCountInString(label) > labelWidth {
			notes = append(notes, label)
			mark := fmt.Sprintf(" [%d]", len(notes))
			label = string([]rune(label)[:labelWidth-utf8.RuneCountInString(mark)-1]) + "…" + mark
		}
		t.Row(append([]string{"  " + label}, r.rest...)...)
	}
	if len(d.Cells) > 0 {
		b.WriteString(t.String())
		b.WriteString("\n")
	}
	for i, n := range notes {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(fmt.Sprintf("[%d] %s", i+1, n)))
	}
	// the runs that left an operation never completing are in the lost
	// column; a line below the table says so (a column would not fit)
	for i := range d.Cells {
		if c := &d.Cells[i]; c.RunsNeverDone > 0 {
			fmt.Fprintf(&b, "%s\n", styleDim.Render(lang.Tf("matrix.never_completes", map[string]any{
				"Row": c.Scenario + " " + c.label(), "Rate": pctSign(c.NeverCompletesRate)})))
		}
	}
	ownRatesLines(&b, lang.Current(), d.Cells, "  ", false)
	for _, l := range ownWordsLines(d.Cells) {
		for i, part := range strings.SplitAfter(l, "; ") { // one clause a line: a terminal's width
			part = strings.TrimSpace(part)
			if i > 0 {
				part = "  " + part
			}
			fmt.Fprintf(&b, "%s\n", styleDim.Render(part))
		}
	}
	failed, unknown := tally(d.Cells)
	switch {
	case len(d.Cells) == 0:
		b.WriteString(lang.T("matrix.no_rows") + "\n")
	case failed == 0 && unknown == 0:
		fmt.Fprintf(&b, "\n%s\n", styleGood.Render(lang.N("matrix.all_held", len(d.Cells))))
	default:
		b.WriteString(summaryLines(lang.Current(), d.Cells, "  ", false))
	}
	b.WriteString(livenessLines(lang.Current(), live, false, "  ", false))
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMatrixMarkdown writes the matrix as a Markdown table, for notes and
// course pages, in the reader's language (JSON is the English contract).
func WriteMatrixMarkdown(w io.Writer, d MatrixDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", lang.Tf("matrix.md_caption", map[string]any{"Seeds": d.Seeds}))
	unfinished, stuck := anyUnfinished(d.Cells), anyNeverCompletes(d.Cells)
	head := []string{"matrix.md_scenario", "matrix.md_row", "matrix.md_runs", "matrix.md_lost", "matrix.md_dup", "matrix.md_violated", "matrix.md_refused"}
	align := "|---|---|--:|--:|--:|--:|--:|"
	if stuck {
		head, align = append(head, "matrix.md_never_completes"), align+"--:|"
	}
	if unfinished {
		head, align = append(head, "matrix.md_unfinished"), align+"--:|"
	}
	live := livenessEntries(d.Cells)
	phase := livenessPhase(live)
	if phase != nil {
		head, align = append(head, "batch_liveness.head"), align+"--:|"
	}
	head = append(head, "matrix.md_effects", "matrix.md_expected", "matrix.md_as_declared", "matrix.md_note")
	b.WriteString("|")
	for _, h := range head {
		b.WriteString(" " + lang.T(h) + " |")
	}
	b.WriteString("\n" + align + "--:|---|---|---|\n")
	for i := range d.Cells {
		c := &d.Cells[i]
		held := heldText(c)
		if !c.Held() {
			held = "**" + held + "**"
		}
		extra := ""
		if stuck {
			extra += " " + pct(c.NeverCompletesRate, c.neverCompletesCI()) + " |"
		}
		if unfinished {
			extra += " " + pct(c.UnfinishedRate, c.UnfinishedCI95) + " |"
		}
		if phase != nil {
			extra += " " + unsettledText(c.Liveness, true) + " |"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %d | %s | %s | %s | %s |%s %s | %s | %s | %s |\n", mdCell(c.Scenario), mdCell(c.label()), c.Runs,
			pct(c.LostRate, c.LostCI95), pct(c.DuplicatedRate, c.DuplicatedCI95), pct(c.ViolationRate, c.ViolationCI95), pct(c.RefusedRate, c.RefusedCI95), extra,
			lang.Decimal(strconv.FormatFloat(c.EffectsPerOp, 'f', 3, 64)), mdCell(ClaimsShort(c.Expected)), held, mdCell(c.note()))
	}
	ownRatesLines(&b, lang.Current(), d.Cells, "- ", true)
	for _, l := range ownWordsLines(d.Cells) {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	b.WriteString(summaryLines(lang.Current(), d.Cells, "- ", true))
	if phase != nil {
		fmt.Fprintf(&b, "\n%s\n", livenessPhaseLine(lang.Current(), phase))
	}
	b.WriteString(livenessLines(lang.Current(), live, false, "- ", true))
	_, err := io.WriteString(w, b.String())
	return err
}

// quoted puts the declared claims in the language's quotation marks.
func quoted(l lang.Lang, s string) string {
	if l == lang.English {
		return fmt.Sprintf("%q", s)
	}
	return l.Tf("matrix.quoted", map[string]any{"Text": s})
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// profileText names the replayed seed's swarm profile, if the matrix was
// a swarm.
func (c *MatrixCell) profileText(l lang.Lang) string {
	if c.SwarmProfile == "" {
		return ""
	}
	return l.Tf("matrix.line_profile", map[string]any{"Profile": c.SwarmProfile})
}
