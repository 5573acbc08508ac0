package scenarios

import (
	"slices"
	"strconv"
	"strings"
)

// OutcomeWords name an operation's effect count in the user's words, so a
// report can say "charged twice" where the checker says "2 effects". A
// scenario file gives them under observe.outcome; a field left out is
// empty and the report falls back to generic words.
type OutcomeWords struct {
	None string // no effect: "not charged"
	Once string // exactly one effect: "charged once"
	Many string // more than one: "charged twice"
	// Partial is an effect on some of the observed sinks only: "one
	// attacked alone" (empty: the generic "partly done").
	Partial string
	// NoneOK says that no effect is an outcome the scenario accepts — the
	// two generals both holding back is agreement —, so a report marks it
	// ✓, not ✗ as a loss.
	NoneOK bool
	// Party is whose outcome the words tell, heading the run's outcome
	// column and line: "for the generals" (empty: "for the customer").
	Party string
}

// outcomeSpec is observe.outcome in a scenario file.
type outcomeSpec struct {
	None Scalar `yaml:"none" value:"text" doc:"no effect, e.g. not charged"`
	Once Scalar `yaml:"once" value:"text" doc:"exactly one effect, e.g. charged once"`
	Many Scalar `yaml:"many" value:"text" doc:"more than one effect, e.g. charged twice"`
	// Partial: an effect on some of the sinks only.
	Partial Scalar `yaml:"partial" value:"text" doc:"an effect on some of the observed sinks only, e.g. one attacked alone"`
	// NoneOK: no effect is accepted (agreement to hold back), not a loss.
	NoneOK Scalar `yaml:"none-ok" value:"bool" doc:"true: no effect is an outcome the scenario accepts (both generals hold back), marked as holding, not as lost"`
	// Party: whose outcome it is.
	Party Scalar `yaml:"party" value:"text" doc:"whose outcome the words tell, heading the run's outcome column, e.g. for the generals (default: for the customer)"`
}

// maxOutcomeWordLen keeps an outcome word short enough for a table cell.
const maxOutcomeWordLen = 32

func (l *loader) checkOutcome(o outcomeSpec) error {
	for _, f := range []struct {
		s     Scalar
		field string
	}{{o.None, "observe.outcome.none"}, {o.Once, "observe.outcome.once"}, {o.Many, "observe.outcome.many"}, {o.Partial, "observe.outcome.partial"}, {o.Party, "observe.outcome.party"}} {
		if !f.s.Set {
			continue
		}
		t := strings.TrimSpace(f.s.Text)
		if t == "" {
			return l.errAt(f.s, "%s: empty (leave the field out for the generic word)", f.field)
		}
		if len([]rune(t)) > maxOutcomeWordLen || strings.ContainsAny(t, "\n\r") {
			return l.errAt(f.s, "%s: %q is not a few words on one line (at most %d characters)", f.field, t, maxOutcomeWordLen)
		}
	}
	if o.NoneOK.Set {
		if _, err := strconv.ParseBool(o.NoneOK.Text); err != nil {
			return l.errAt(o.NoneOK, "observe.outcome.none-ok: %q: want true or false", o.NoneOK.Text)
		}
	}
	return nil
}

func outcomeWords(o outcomeSpec) OutcomeWords {
	ok, _ := strconv.ParseBool(o.NoneOK.Text)
	return OutcomeWords{None: strings.TrimSpace(o.None.Text), Once: strings.TrimSpace(o.Once.Text), Many: strings.TrimSpace(o.Many.Text),
		Partial: strings.TrimSpace(o.Partial.Text), NoneOK: ok, Party: strings.TrimSpace(o.Party.Text)}
}

// refusalStatuses are the statuses observe.refused may name: a request
// refused before anything was done (400, 403, 409, 422, 429, 503).
var refusalStatuses = []int{400, 403, 409, 422, 429, 503}

// refusals reads observe.refused: the final statuses the scenario
// declares as its designed answer, so that an operation answered with one
// and never applied is "refused as designed", not lost.
func (l *loader) refusals(ss []Scalar) ([]int32, error) {
	var out []int32
	for _, s := range ss {
		n, err := strconv.Atoi(strings.TrimSpace(s.Text))
		if err != nil || !slices.Contains(refusalStatuses, n) {
			return nil, l.errAt(s, "observe.refused: %q is not a refusal status (one of %s)", s.Text, joinInts(refusalStatuses))
		}
		if slices.Contains(out, int32(n)) {
			return nil, l.errAt(s, "observe.refused: %d is named twice", n)
		}
		out = append(out, int32(n))
	}
	return out, nil
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// inProgressStatuses are the statuses observe.in-progress may name: an
// answer that asks the client to come back (202 accepted, 409 in flight,
// 425 too early, 429 too many requests, 503 not now).
var inProgressStatuses = []int{202, 409, 425, 429, 503}

// inProgress reads observe.in-progress: the answers that tell the client
// its operation is still in flight, so that an operation a finished run
// leaves with such a last answer never completes (sim.OpNeverCompletes).
// A status cannot be both a designed refusal and "in progress".
func (l *loader) inProgress(ss, refused []Scalar) ([]int32, error) {
	var out []int32
	for _, s := range ss {
		n, err := strconv.Atoi(strings.TrimSpace(s.Text))
		if err != nil || !slices.Contains(inProgressStatuses, n) {
			return nil, l.errAt(s, "observe.in-progress: %q is not an in-progress status (one of %s)", s.Text, joinInts(inProgressStatuses))
		}
		if slices.Contains(out, int32(n)) {
			return nil, l.errAt(s, "observe.in-progress: %d is named twice", n)
		}
		for _, r := range refused {
			if strings.TrimSpace(r.Text) == strconv.Itoa(n) {
				return nil, l.errAt(s, "observe.in-progress: %d is also in observe.refused (an answer is final or not)", n)
			}
		}
		out = append(out, int32(n))
	}
	return out, nil
}
