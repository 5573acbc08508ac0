package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// summary is the panel beside the ledger, cut to width and height.
func (v runView) summary(width, height int) string {
	if width < 12 {
		return ""
	}
	lines := v.summaryLines(width)
	if len(lines) > height {
		lines = append(lines[:max(0, height-1)], styleDim.Render("… "+lang.T("tui.summary.more")))
	}
	for i := range lines {
		lines[i] = fit(lines[i], width)
	}
	return strings.Join(lines, "\n")
}

// promiseLine is "semantics' guarantee: ≥1 — holds · 70 events · 2.2s"
// (without its label: "≥1 — holds · 70 events · 2.2s"): the semantics'
// promise alone, never what the customer got.
func promiseLine(o *sim.Outcome, label bool) string {
	end := styleDim.Render(" · " + lang.N("count.events", o.Events) + " · " + report.TimeWords(o.EndTime))
	if !o.Finished() {
		end = styleWarn.Render(" · " + lang.Tf("tui.summary.unfinished", map[string]any{"End": lang.Word("end", o.End.String())}))
	}
	g := o.Guarantee
	if g == 0 {
		g = o.Status
	}
	s := statusStyle(g).Render(report.GuaranteeOf(o)) + end
	if label {
		s = lang.T("guarantee.head") + ": " + s
	}
	return s
}

// outcomeLine says in the user's words what the operations came to:
// "4 charged once ✓ · 1 charged twice ✗".
func (v runView) outcomeLine(o *sim.Outcome) string {
	text := report.TranslatedOutcomeOf(v.spec.sc.Outcome, o)
	st := styleGood
	if report.CustomerHarmed(o) {
		st = styleBad
	}
	return st.Render(text)
}

// outcomeLines is outcomeLine broken at its " · " into lines of at most
// width cells, so that "charged twice" is never cut off.
func (v runView) outcomeLines(o *sim.Outcome, width int) []string {
	text := report.TranslatedOutcomeOf(v.spec.sc.Outcome, o)
	st := styleGood
	if report.CustomerHarmed(o) {
		st = styleBad
	}
	lines := fill(strings.Split(text, " · "), " · ", width)
	for i := range lines {
		lines[i] = st.Render(lines[i])
	}
	return lines
}

// countsLine is "0 lost · 4 exactly-once · 1 duplicated" (and the
// operations refused as designed or not started, when there are some),
// with the reports' column words (plural, where a language inflects);
// Romanian and Russian read the words as a label before the count
// ("pierdute: 0"), as the summary table does.
func countsLine(o *sim.Outcome) string {
	ro := o.RunOutcome()
	var parts []string
	add := func(n int, words string, st lipgloss.Style) {
		parts = append(parts, lang.Tf("outcomefmt.faults", map[string]any{"Count": st.Render(fmt.Sprint(n)), "Words": words}))
	}
	add(ro.Count(sim.OpLost)+ro.Count(sim.OpPartial), lang.T("column.lost"), verdictStyle(sim.Lost))
	add(ro.Count(sim.OpExactlyOnce), lang.T("column.exactly_once"), verdictStyle(sim.ExactlyOnce))
	add(ro.Count(sim.OpDuplicated), lang.T("column.duplicated"), verdictStyle(sim.Duplicated))
	if n := ro.Count(sim.OpNeverCompletes); n > 0 {
		add(n, report.OpOutcomeWord(sim.OpNeverCompletes, scenarios.OutcomeWords{}), verdictStyle(sim.Lost))
	}
	for _, k := range []sim.OpOutcome{sim.OpRefused, sim.OpPending, sim.OpNotStarted} {
		if n := ro.Count(k); n > 0 {
			add(n, report.OpOutcomeWord(k, scenarios.OutcomeWords{}), styleDim)
		}
	}
	return strings.Join(parts, " · ")
}

// invariantLines are the scenario's invariants, each held or violated.
func invariantLines(o *sim.Outcome) []string {
	var lines []string
	for _, inv := range o.Invariants {
		if inv.Violation == "" {
			lines = append(lines, inv.Name+": "+styleGood.Render(lang.T("tui.invariant.held")))
		} else {
			lines = append(lines, inv.Name+": "+styleBad.Render(lang.T("tui.invariant.violated"))+" "+lang.Violation(inv.Detail))
		}
	}
	return lines
}

// metricLines are the scenario's metrics with their units:
// "open-txn-ms = 1958 ms".
func metricLines(cat *roles.Catalog, o *sim.Outcome) []string {
	var lines []string
	for _, m := range o.Metrics {
		lines = append(lines, report.MetricText(report.MetricDoc{Name: m.Name, Value: m.Value, Unit: cat.MetricUnit(m.Name)}))
	}
	return lines
}

// summaryLines are what the summary panel says: the outcome in the user's
// words, whether the semantics kept its promise, the verdict counts, the
// faults, the invariants and metrics, and the what-ifs with the verdicts
// they changed.
func (v runView) summaryLines(width int) []string {
	o := v.cur.outcome
	if o == nil {
		return nil
	}
	lines := append(v.outcomeLines(o, width), promiseLine(o, true), countsLine(o))
	lines = append(lines, lang.T("tui.summary.faults")+": "+faultText(v.cur.topo.Registry(), o.Faults))
	if o.Status == sim.Violated && o.Why != "" && len(o.Invariants) == 0 {
		lines = append(lines, styleBad.Render(lang.Reason(o.Reason)))
	}
	if len(v.toggles) == 0 {
		lines = append(lines, invariantLines(o)...)
		lines = append(lines, metricLines(v.spec.sc.Roles(), o)...)
		if len(o.Invariants)+len(o.Metrics) == 0 {
			lines = append(lines, styleDim.Render(lang.T("tui.summary.whatif_hint")))
		}
		return lines
	}
	lines = append(lines, v.whatIfLines()...)
	lines = append(lines, invariantLines(o)...)
	return append(lines, metricLines(v.spec.sc.Roles(), o)...)
}

// whatIfLines list the what-ifs and the verdicts they changed.
func (v runView) whatIfLines() []string {
	var lines []string
	for _, t := range v.toggles {
		s := "✂ " + lang.Tf("tui.whatif.drop", map[string]any{"Msg": t.label})
		f, ok := v.cur.faultOf(t.key)
		switch {
		case v.missing[t.key]:
			s += styleDim.Render(" (" + lang.T("tui.whatif.no_such_message") + ")")
		case !t.drop:
			s = "↩ " + lang.Tf("tui.whatif.deliver", map[string]any{"Msg": t.label})
		case !ok || !v.cur.applied[f]:
			s += styleDim.Render(" (" + lang.T("tui.whatif.not_applied") + ")")
		}
		lines = append(lines, styleMagenta.Render(s))
	}
	ch := verdictChanges(v.base.outcome, v.cur.outcome)
	if len(ch) == 0 {
		lines = append(lines, styleDim.Render(lang.T("tui.whatif.no_change")))
	}
	for _, c := range ch {
		lines = append(lines, fmt.Sprintf("%s: %s → %s", c.op,
			verdictStyle(c.from.Verdict).Render(verdictWord(c.from.Verdict)), verdictStyle(c.to.Verdict).Render(verdictWord(c.to.Verdict))))
	}
	if b, c := v.base.outcome.Status, v.cur.outcome.Status; b != c {
		lines = append(lines, fmt.Sprintf("%s: %s → %s", lang.T("column.verdict"),
			statusStyle(b).Render(statusWord(b)), statusStyle(c).Render(statusWord(c))))
	}
	return lines
}

// metricsView is the metrics and invariants panel (m): what the run came
// to for the user, the promise, each invariant held or violated with its
// whole text, each metric with its unit, and the faults that hit.
func (v runView) metricsView(width, height int) string {
	o := v.cur.outcome
	if o == nil {
		return fixHeight(nil, height)
	}
	var lines []string
	section := func(title string, body []string) {
		lines = append(lines, styleTitle.Render(title))
		if len(body) == 0 {
			body = []string{styleDim.Render(lang.T("tui.panel.none"))}
		}
		for _, b := range body {
			for i, l := range wrap(b, width-4) {
				if i == 0 {
					lines = append(lines, "  "+l)
				} else {
					lines = append(lines, "    "+l)
				}
			}
		}
	}
	section(report.PartyHead(v.spec.sc.Outcome), []string{v.outcomeLine(o), countsLine(o)})
	section(lang.T("guarantee.head"), []string{promiseLine(o, false)})
	section(lang.T("column.invariants"), invariantLines(o))
	section(lang.T("tui.panel.metrics"), metricLines(v.spec.sc.Roles(), o))
	section(lang.T("column.faults"), []string{faultText(v.cur.topo.Registry(), o.Faults)})
	for i := range lines {
		lines[i] = fit(lines[i], width)
	}
	return fixHeight(lines, height)
}
