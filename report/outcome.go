package report

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// The rendering of sim's outcome classification (sim.OpOutcome,
// sim.RunOutcome): every view says what the customer got in the words
// below, apart from the semantics' guarantee, so that one is never taken
// for the other. The classification itself is computed in sim.

// The generic words of the outcomes that are not an effect count; a
// translation finds them in the outcome section of report/lang.
const (
	WordRefused    = "refused as designed"
	WordNotStarted = "not started"
	WordPending    = "no answer yet"
	WordPartial    = "partly done"
	// WordNeverCompletes is an operation told "in progress" until the
	// client gave up (sim.OpNeverCompletes): a liveness violation.
	WordNeverCompletes = "never completes"
)

// OutcomeCounts are a run's operations per outcome, as report views count
// them (the JSON's outcome.counts).
type OutcomeCounts struct {
	Lost int `json:"lost"`
	// NeverCompletes: operations left "in progress" by a finished run
	// (sim.OpNeverCompletes), apart from Lost.
	NeverCompletes int `json:"never_completes,omitempty"`
	Partial        int `json:"partial,omitempty"`
	ExactlyOnce    int `json:"exactly_once"`
	Refused        int `json:"refused"`
	Duplicated     int `json:"duplicated"`
	Pending        int `json:"pending,omitempty"`
	NotStarted     int `json:"not_started"`
}

// Harmed is how many operations came to what the customer should not
// get: lost, never completed, partly done or duplicated.
func (c OutcomeCounts) Harmed() int { return c.Lost + c.NeverCompletes + c.Partial + c.Duplicated }

// CountsOf folds a run outcome's counts.
func CountsOf(r sim.RunOutcome) OutcomeCounts {
	return OutcomeCounts{
		Lost: r.Count(sim.OpLost), Partial: r.Count(sim.OpPartial), ExactlyOnce: r.Count(sim.OpExactlyOnce),
		Refused: r.Count(sim.OpRefused), Duplicated: r.Count(sim.OpDuplicated), Pending: r.Count(sim.OpPending),
		NotStarted: r.Count(sim.OpNotStarted), NeverCompletes: r.Count(sim.OpNeverCompletes),
	}
}

// RunOutcomeDoc is the JSON "run_outcome" of one run: how it ended
// ("completed", "invariant-violated", "never-completes"), the violated
// invariants by name, the operations per outcome, and the English text of
// those counts ("4 charged once ✓ · 1 charged twice ✗").
type RunOutcomeDoc struct {
	Run        string        `json:"run"`
	Invariants []string      `json:"violated_invariants,omitempty"`
	Counts     OutcomeCounts `json:"counts"`
	Text       string        `json:"text"`
}

// outcomeWord is the outcome's words and mark: the scenario's effect words
// for lost, once and many; the generic words for the others.
func outcomeWord(k sim.OpOutcome, w scenarios.OutcomeWords) (words, mark string) {
	switch k {
	case sim.OpLost:
		if w.NoneOK {
			return w.None, MarkGood
		}
		return w.None, MarkBad
	case sim.OpExactlyOnce:
		return w.Once, MarkGood
	case sim.OpDuplicated:
		return w.Many, MarkBad
	case sim.OpRefused:
		return WordRefused, MarkGood
	case sim.OpPartial:
		if w.Partial != "" {
			return w.Partial, MarkBad
		}
		return WordPartial, MarkBad
	case sim.OpNeverCompletes:
		return WordNeverCompletes, MarkBad
	case sim.OpPending:
		return WordPending, ""
	case sim.OpNotStarted:
		return WordNotStarted, ""
	}
	return k.String(), ""
}

// CustomerText says in the user's words what the operations came to, in
// English (the JSON's): "4 charged once ✓ · 1 charged twice ✗", "1
// charged once ✓ · 2 refused as designed ✓". Counts of zero are left out.
func CustomerText(w scenarios.OutcomeWords, c OutcomeCounts, maxEffects int32) string {
	return customerTextIn(func(s string) string { return s }, englishCount, w, c, maxEffects)
}

// TranslatedCustomerText is CustomerText in the current language.
func TranslatedCustomerText(w scenarios.OutcomeWords, c OutcomeCounts, maxEffects int32) string {
	return customerTextIn(func(s string) string { return lang.Word("outcome", s) }, localCount, w, c, maxEffects)
}

func customerTextIn(tr func(string) string, count func(n int, words, mark string) string, w scenarios.OutcomeWords, c OutcomeCounts, maxEffects int32) string {
	w = manyWords(tr, OutcomeWords(w), maxEffects)
	var parts []string
	for _, k := range sim.OpOutcomes() {
		n := c.of(k)
		if n == 0 {
			continue
		}
		words, mark := outcomeWord(k, w)
		if k != sim.OpLost && k != sim.OpExactlyOnce && k != sim.OpDuplicated {
			words = tr(words)
		}
		parts = append(parts, strings.TrimSpace(count(n, words, mark)))
	}
	if len(parts) == 0 {
		return tr(wordNone)
	}
	return strings.Join(parts, " · ")
}

// manyWords translates the scenario's three effect words with tr, adding
// "or more" to many when some operation had more than two effects.
func manyWords(tr func(string) string, w scenarios.OutcomeWords, maxEffects int32) scenarios.OutcomeWords {
	orMore := maxEffects > 2 && w.Many != WordOutcomeMany
	w.None, w.Once, w.Many = tr(w.None), tr(w.Once), tr(w.Many)
	if orMore {
		w.Many += " " + tr(wordOrMore)
	}
	return w
}

func (c OutcomeCounts) of(k sim.OpOutcome) int {
	switch k {
	case sim.OpLost:
		return c.Lost
	case sim.OpPartial:
		return c.Partial
	case sim.OpNeverCompletes:
		return c.NeverCompletes
	case sim.OpExactlyOnce:
		return c.ExactlyOnce
	case sim.OpRefused:
		return c.Refused
	case sim.OpDuplicated:
		return c.Duplicated
	case sim.OpPending:
		return c.Pending
	case sim.OpNotStarted:
		return c.NotStarted
	}
	return 0
}

// manyTimes is one operation's many-effects word with its count, when it
// had more than two: "charged twice" becomes "charged 3 times"; a word
// that does not end in "twice" (another language's, or a scenario's own)
// gets the count after it: "duplicate rows (×3)".
func manyTimes(word string, effects int32) string {
	if effects <= 2 {
		return word
	}
	if stem, ok := strings.CutSuffix(word, " twice"); ok {
		return fmt.Sprintf("%s %d times", stem, effects)
	}
	return fmt.Sprintf("%s (×%d)", word, effects)
}

// OpOutcomeWord is one operation's outcome in the current language, for a
// ledger cell: "charged twice", "refused as designed", "not started".
func OpOutcomeWord(k sim.OpOutcome, w scenarios.OutcomeWords) string {
	words, _ := outcomeWord(k, OutcomeWords(w))
	return lang.Word("outcome", words)
}

// GuaranteeText is a semantics' own guarantee with its fate, apart from
// the invariants and from what the customer got: "≥1 — holds", "=1 —
// broken", "≥1 — unknown (unfinished: time budget exhausted)".
func GuaranteeText(guarantee sim.Status, promise string, finished bool, end string) string {
	switch guarantee {
	case sim.Held:
		return lang.Tf("guarantee.holds", map[string]any{"Promise": promise})
	case sim.Violated:
		return lang.Tf("guarantee.broken", map[string]any{"Promise": promise})
	}
	if !finished {
		return lang.Tf("guarantee.unfinished", map[string]any{"Promise": promise, "End": lang.Word("end", end)})
	}
	return lang.Tf("guarantee.unknown", map[string]any{"Promise": promise})
}

// GuaranteeOf is an outcome's guarantee text (see GuaranteeText).
func GuaranteeOf(o *sim.Outcome) string {
	return GuaranteeText(guaranteeOf(o), o.Semantics.Promise().String(), o.Finished(), o.End.String())
}

// guaranteeOf is o.Guarantee, or o.Status where an Outcome was built
// without it and has no invariant to fold in.
func guaranteeOf(o *sim.Outcome) sim.Status {
	if o.Guarantee != 0 {
		return o.Guarantee
	}
	return o.Status
}

// SinkNames are the names of an observation's sinks, in its order, as
// topo (the run's) names them.
func SinkNames(topo *sim.Topology, obs sim.Observation) []string {
	out := make([]string, 0, len(obs.Sinks))
	for _, s := range obs.Sinks {
		if int(s) < len(topo.Sinks) {
			out = append(out, topo.Sinks[s])
		} else {
			out = append(out, "?")
		}
	}
	return out
}

// maxNamedOps is how many operations a framing line names before it
// counts the rest.
const maxNamedOps = 3

// FramingLine says, in the current language and on one line, the
// semantics' guarantee, the invariants that decided the verdict, and what
// the customer got, each in its own words: "guarantee ≥1 — holds; for the
// customer: op-3 charged twice ✗". sinks names the observed sinks (for an
// operation done on some of them only); it may be nil.
func FramingLine(o *sim.Outcome, w scenarios.OutcomeWords, sinks []string) string {
	data := map[string]any{"Guarantee": GuaranteeOf(o), "Customer": customerOps(o, w, sinks), "Party": PartyHead(w)}
	ro := o.RunOutcome()
	if len(ro.Invariants) > 0 {
		data["Invariants"] = strings.Join(ro.Invariants, ", ")
		return lang.Tf("guarantee.line_violated", data)
	}
	return lang.Tf("guarantee.line", data)
}

// PartyHead is whose outcome a run's outcome column and line tell, in the
// current language: the scenario's party ("for the generals"), else "for
// the customer".
func PartyHead(w scenarios.OutcomeWords) string {
	if w.Party == "" {
		return lang.T("customer.head")
	}
	return lang.Word("outcome", w.Party)
}

// customerOps names the operations that did not come to once, grouped by
// outcome ("op-3 charged twice ✗ · 4 charged once ✓"); "every operation
// charged once ✓" when all did.
func customerOps(o *sim.Outcome, w scenarios.OutcomeWords, sinks []string) string {
	w = manyWords(func(s string) string { return lang.Word("outcome", s) }, OutcomeWords(w), o.MaxEffects())
	var parts []string
	once := 0
	for _, k := range sim.OpOutcomes() {
		var ops []string
		for i := range o.Ops {
			op := &o.Ops[i]
			if op.Class() != k {
				continue
			}
			if k == sim.OpPartial && w.Partial == "" && len(sinks) == len(op.SinkEffects) {
				var on []string
				for j, n := range op.SinkEffects {
					if n > 0 {
						on = append(on, sinks[j])
					}
				}
				parts = append(parts, lang.Tf("customer.only_on", map[string]any{"Op": op.Op.String(), "Sinks": strings.Join(on, ", ")})+" "+MarkBad)
				continue
			}
			ops = append(ops, op.Op.String())
		}
		if k == sim.OpExactlyOnce {
			once = len(ops)
			continue
		}
		if len(ops) == 0 {
			continue
		}
		if len(ops) > maxNamedOps {
			ops = append(ops[:maxNamedOps], lang.Tf("customer.more", map[string]any{"Count": len(ops) - maxNamedOps}))
		}
		words, mark := outcomeWord(k, w)
		if k != sim.OpLost && k != sim.OpDuplicated {
			words = lang.Word("outcome", words)
		}
		parts = append(parts, strings.TrimSpace(lang.Tf("customer.named", map[string]any{"Ops": strings.Join(ops, ", "), "Words": words, "Mark": mark})))
	}
	if len(parts) == 0 {
		if once == 0 {
			return lang.Word("outcome", wordNone)
		}
		return lang.Tf("customer.every", map[string]any{"Words": w.Once}) + " " + MarkGood
	}
	if once > 0 {
		parts = append(parts, strings.TrimSpace(localCount(once, w.Once, MarkGood)))
	}
	return strings.Join(parts, " · ")
}

// TranslatedOutcomeOf is TranslatedCustomerText of an outcome: what its operations
// came to, in the current language.
func TranslatedOutcomeOf(w scenarios.OutcomeWords, o *sim.Outcome) string {
	return TranslatedCustomerText(w, CountsOf(o.RunOutcome()), o.MaxEffects())
}

// CustomerHarmed reports whether some operation came to what the customer
// should not get: lost, never completed, partly done or duplicated (a refusal by design,
// an unstarted or a pending operation is not harm).
func CustomerHarmed(o *sim.Outcome) bool {
	for i := range o.Ops {
		switch o.Ops[i].Class() {
		case sim.OpLost, sim.OpPartial, sim.OpDuplicated, sim.OpNeverCompletes:
			return true
		}
	}
	return false
}
