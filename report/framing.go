package report

import (
	"fmt"

	"github.com/oncesim/once/report/lang"
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

// englishCount puts the count before the words: "4 charged once ✓".
func englishCount(n int, words, mark string) string { return fmt.Sprintf("%d %s %s", n, words, mark) }

// localCount orders a count and its words as the current language reads
// them: a participle after a bare number does not agree in Romanian or
// Russian ("4 debitat"), so there the words are a label: "debitat o dată:
// 4 ✓".
func localCount(n int, words, mark string) string {
	return lang.Tf("outcomefmt.count", map[string]any{"Count": n, "Words": words, "Mark": mark})
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
