package report

import (
	"github.com/oncesim/once/report/lang"

	"fmt"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// OutcomeWords are a scenario's words for none, once and many effects,
// with the generic words where it gives none.
func OutcomeWords(w scenarios.OutcomeWords) scenarios.OutcomeWords {
	if w.None == "" {
		w.None = WordOutcomeNone
	}
	if w.Once == "" {
		w.Once = WordOutcomeOnce
	}
	if w.Many == "" {
		w.Many = WordOutcomeMany
	}
	return w
}

// OutcomeText says in the user's words what the operations came to:
// "4 charged once ✓ · 1 charged twice ✗" ("charged twice or more" when
// some operation had more than two effects). Counts of zero are left out;
// "none" only when there were no operations at all.
//
// Deprecated: it counts verdicts, so a designed refusal reads as a loss;
// use CustomerText, which renders sim's outcome classification.
func OutcomeText(w scenarios.OutcomeWords, lost, once, many int, maxEffects int32) string {
	return outcomeTextIn(func(english string) string { return english }, englishCount, w, lost, once, many, maxEffects)
}

// englishCount puts the count before the words: "4 charged once ✓".
func englishCount(n int, words, mark string) string { return fmt.Sprintf("%d %s %s", n, words, mark) }

// localCount orders a count and its words as the current language reads
// them: a participle after a bare number does not agree in Romanian or
// Russian ("4 debitat"), so there the words are a label: "debitat o dată:
// 4 ✓".
func localCount(n int, words, mark string) string {
	return lang.Tf("outcomefmt.count", map[string]any{"Count": n, "Words": words, "Mark": mark})
}

// localOutcomeText is OutcomeText in the current language: every word goes
// through the outcome section of report/lang (the JSON keeps English).
func localOutcomeText(w scenarios.OutcomeWords, lost, once, many int, maxEffects int32) string {
	return outcomeTextIn(func(english string) string { return lang.Word("outcome", english) }, localCount, w, lost, once, many, maxEffects)
}

// outcomeTextIn is OutcomeText with every word passed through tr and each
// count written by count.
func outcomeTextIn(tr func(string) string, count func(n int, words, mark string) string, w scenarios.OutcomeWords, lost, once, many int, maxEffects int32) string {
	w = OutcomeWords(w)
	orMore := maxEffects > 2 && w.Many != WordOutcomeMany
	w.None, w.Once, w.Many = tr(w.None), tr(w.Once), tr(w.Many)
	if orMore {
		w.Many += " " + tr(wordOrMore)
	}
	var parts []string
	add := func(n int, word, mark string) {
		if n > 0 {
			parts = append(parts, count(n, word, mark))
		}
	}
	add(lost, w.None, MarkBad)
	add(once, w.Once, MarkGood)
	add(many, w.Many, MarkBad)
	if len(parts) == 0 {
		return tr(wordNone)
	}
	return strings.Join(parts, " · ")
}

// PromiseWord is whether a semantics kept its own promise, with the
// promise: "kept (≥1)", "broken (=1)", "unknown (≥1)".
//
// Deprecated: a bare "kept" reads as good news beside a duplicate; use
// GuaranteeText (or FramingLine), which keeps the guarantee apart from
// what the customer got.
func PromiseWord(status string, promise string) string {
	w := WordUnknown
	switch status {
	case sim.Held.String():
		w = lang.T("promise.kept")
	case sim.Violated.String():
		w = lang.T("promise.broken")
	default:
		w = lang.Word("verdict", "unknown")
	}
	return w + " (" + promise + ")"
}

// PromiseText names the semantics with its guarantee's fate, invariants
// apart, for titles: "at-least-once guarantee: ≥1 — holds"; a violated
// invariant follows, named: "… · violated: agreement — general-a attacks
// alone".
func PromiseText(o *sim.Outcome) string {
	s := lang.Tf("guarantee.of", map[string]any{"Semantics": o.Semantics.String()}) + ": " + GuaranteeOf(o)
	for _, inv := range o.Invariants {
		if inv.Violation != "" {
			s += " · " + lang.T("customer.invariant_violated") + ": " + inv.Name + " — " + lang.Violation(inv.Detail)
		}
	}
	return s
}

// EffectValues lists, per operation, the values of its effects on the
// observed sink, in trace order: the transaction ids of its charges. Two
// different ids for one payment are two charges. It is nil when the
// scenario observes several sinks (one effect on each is not a repeat).
func EffectValues(obs sim.Observation, events []sim.Event) map[sim.OpID][]int64 {
	if len(obs.Sinks) != 1 {
		return nil
	}
	out := map[sim.OpID][]int64{}
	for i := range events {
		e := &events[i]
		if e.Kind == sim.EvEffect && sim.SinkID(e.Label) == obs.Sinks[0] && e.Msg.Op > 0 {
			out[e.Msg.Op] = append(out[e.Msg.Op], e.Msg.Value)
		}
	}
	return out
}
