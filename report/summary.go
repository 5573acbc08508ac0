package report

import (
	"github.com/oncesim/once/scenarios"

	"github.com/oncesim/once/report/lang"

	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// summaryTable is the first table of `once run`: per semantics, what the
// user got ("1 charged twice ✗"), the most effects of one operation, the
// faults, the scenario's metrics with their units and its invariants, and
// — last and apart — whether the semantics kept its own promise.
func summaryTable(doc RunDoc) string {
	var metrics []MetricDoc
	hasInvariants := false
	all := append(append([]RunResult{}, doc.Results...), doc.Headlines...)
	for _, r := range all {
		if len(r.Metrics) > len(metrics) {
			metrics = r.Metrics
		}
		hasInvariants = hasInvariants || len(r.Invariants) > 0
	}
	head := []string{lang.T("column.semantics"), PartyHead(doc.OutcomeWords.Words()), lang.T("column.max_effects"), lang.T("column.faults")}
	for _, m := range metrics {
		head = append(head, MetricHead(m))
	}
	if hasInvariants {
		head = append(head, lang.T("column.invariants"))
	}
	head = append(head, lang.T("guarantee.head"))
	t := newTable(head...)
	for i, r := range all {
		name := r.Semantics
		if i >= len(doc.Results) {
			name = r.Row
		}
		ow := doc.OutcomeWords.Words()
		row := []string{name, outcomeStyled(TranslatedCustomerText(ow, r.RunOutcome.Counts, r.MaxEffects)), strconv.Itoa(int(r.MaxEffects)), faultSummary(r.Faults)}
		for _, m := range metrics {
			row = append(row, metricCell(r.Metrics, m.Name))
		}
		if hasInvariants {
			row = append(row, invariantsCell(r.Invariants))
		}
		held := GuaranteeText(statusNamed(r.Guarantee), r.Promise, r.Finished, r.End)
		row = append(row, promiseStyle(r.Guarantee).Render(held))
		t.Row(row...)
	}
	var b strings.Builder
	b.WriteString(t.String())
	for i, r := range all {
		name := r.Semantics
		if i >= len(doc.Results) {
			name = r.Row
		}
		fmt.Fprintf(&b, "\n%s %s", styleDim.Render(name+":"), r.Framing)
	}
	for _, r := range doc.Headlines {
		note := r.Note
		if r.NoteText != "" {
			note = r.NoteText
		}
		fmt.Fprintf(&b, "\n%s %s", styleDim.Render(r.Row+":"), note)
	}
	return b.String()
}

// outcomeStyled colours each part of an outcome: the user's ✓ green, ✗ red.
func outcomeStyled(text string) string {
	parts := strings.Split(text, " · ")
	for i, p := range parts {
		switch {
		case strings.HasSuffix(p, MarkBad):
			parts[i] = styleBad.Render(p)
		case strings.HasSuffix(p, MarkGood):
			parts[i] = styleGood.Render(p)
		}
	}
	return strings.Join(parts, " · ")
}

// promiseStyle keeps a kept promise plain: a kept "≥1" beside two charges
// is not good news, only a promise kept. A broken one is red.
func promiseStyle(status string) interface{ Render(...string) string } {
	switch status {
	case sim.Violated.String():
		return styleBad
	case sim.Unknown.String():
		return styleWarn
	}
	return styleDim
}

// MetricHead names a metric with its unit: "oldest-duplicate-age (s)".
func MetricHead(m MetricDoc) string {
	if m.Unit == "" {
		return m.Name
	}
	return m.Name + " (" + lang.UnitHead(m.Unit) + ")"
}

// MetricText is a metric with its value and unit, for a line of text:
// "oldest-duplicate-age = 60 s".
func MetricText(m MetricDoc) string {
	v := metricNum(m.Value)
	s := m.Name + " = " + v
	if m.Unit != "" {
		s += " " + lang.Unit(m.Unit, v)
	}
	return s
}

func metricCell(ms []MetricDoc, name string) string {
	for _, m := range ms {
		if m.Name == name {
			return metricNum(m.Value)
		}
	}
	return "–"
}

// invariantsCell is "held" when all held, else the names of the violated.
func invariantsCell(invs []InvariantDoc) string {
	var bad []string
	for _, inv := range invs {
		if !inv.Held {
			bad = append(bad, inv.Name)
		}
	}
	if len(invs) == 0 {
		return "–"
	}
	if len(bad) == 0 {
		return styleGood.Render(lang.T("customer.invariant_held"))
	}
	return styleBad.Render(lang.T("customer.invariant_violated") + ": " + strings.Join(bad, ", "))
}

// ledgerTable is one semantics' per-operation ledger, with the values of
// each operation's effects (its transaction ids) and a red second effect.
func ledgerTable(r RunResult, words scenarios.OutcomeWords) string {
	withIDs := false
	for _, op := range r.Ops {
		withIDs = withIDs || len(op.EffectValues) > 0
	}
	head := []string{lang.T("column.op"), lang.T("column.attempts"), lang.T("column.deliveries"), lang.T("column.effects")}
	if withIDs {
		head = append(head, lang.T("column.effect_ids"))
	}
	head = append(head, lang.T("column.responses"), lang.T("customer.outcome"))
	lt := newTable(head...)
	for _, op := range r.Ops {
		row := []string{sim.OpID(op.Op).String(), strconv.Itoa(int(op.Attempts)), strconv.Itoa(int(op.Deliveries)), strconv.Itoa(int(op.Effects))}
		if withIDs {
			row = append(row, effectIDs(op.EffectValues))
		}
		row = append(row, strconv.Itoa(int(op.DistinctResponses)), opOutcomeCell(op, words))
		lt.Row(row...)
	}
	return lt.String() + "\n"
}

// maxEffectIDs is how many effect ids a ledger cell lists before it
// counts the rest.
const maxEffectIDs = 4

// effectIDs lists effect values, every one after the first in red, at
// most maxEffectIDs of them and then how many more.
func effectIDs(vs []int64) string {
	more := 0
	if len(vs) > maxEffectIDs {
		vs, more = vs[:maxEffectIDs], len(vs)-maxEffectIDs
	}
	parts := make([]string, len(vs), len(vs)+1)
	for i, v := range vs {
		parts[i] = strconv.FormatInt(v, 10)
		if i > 0 {
			parts[i] = styleBad.Render(parts[i])
		}
	}
	if len(parts) == 0 {
		return "–"
	}
	if more > 0 {
		parts = append(parts, styleBad.Render(lang.Tf("customer.more_values", map[string]any{"Count": more})))
	}
	return strings.Join(parts, ", ")
}

// metricNum rounds a metric for reading: three decimals at most.
// metricNum is a metric's value for a screen, to three decimals at most,
// in the current language's form ("52.036", "52,036").
func metricNum(v float64) string {
	return lang.Decimal(strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64))
}

// statusNamed is the status a JSON status word names.
func statusNamed(s string) sim.Status {
	switch s {
	case sim.Held.String():
		return sim.Held
	case sim.Violated.String():
		return sim.Violated
	}
	return sim.Unknown
}

// opOutcomeCell is one operation's outcome in a ledger, in the scenario's
// words and coloured by whether the customer got what they should.
func opOutcomeCell(op OpDoc, words scenarios.OutcomeWords) string {
	k := opOutcomeNamed(op.Outcome)
	text := OpOutcomeWord(k, words)
	if k == sim.OpDuplicated {
		text = manyTimes(text, op.Effects)
	}
	switch {
	case k.Good() || k == sim.OpLost && words.NoneOK:
		return styleGood.Render(text + " " + MarkGood)
	case k == sim.OpPending || k == sim.OpNotStarted:
		return styleWarn.Render(text)
	}
	return styleBad.Render(text + " " + MarkBad)
}

// opOutcomeNamed is the outcome a JSON outcome word names.
func opOutcomeNamed(s string) sim.OpOutcome {
	for _, k := range sim.OpOutcomes() {
		if k.String() == s {
			return k
		}
	}
	return sim.OpLost
}
