package sim

import "fmt"

// A ReasonKind names why a verdict is what it is, so a report can say it in
// the reader's language; Reason.String is the English sentence the JSON
// carries.
type ReasonKind uint8

// The reasons a judgement gives.
const (
	ReasonNone        ReasonKind = iota // the promise held: nothing to say
	ReasonDuplicate                     // Op has N effects, more than Promise allows
	ReasonDivergent                     // Op got N different results for one key
	ReasonNoEffectYet                   // Op has no effect yet and the run did not finish
	ReasonNoEffect                      // Op has no effect on a finished run
	ReasonUnfinished                    // every operation looks fine, but the run did not finish
	ReasonInvariant                     // the invariant Invariant is violated: Detail says how
	ReasonNeverDone                     // Op has no effect on a finished run, its last answer N said "in progress"
)

// A Reason is why a judgement is Violated or Unknown: its kind and the
// values its sentence quotes.
type Reason struct {
	Kind      ReasonKind
	Op        OpID
	N         int32     // effects (ReasonDuplicate), distinct results (ReasonDivergent) or the last answer's status (ReasonNeverDone)
	Promise   Promise   // the promise judged
	Invariant string    // ReasonInvariant: the invariant's name
	Detail    string    // ReasonInvariant: the invariant's own words (English)
	Message   Violation // ReasonInvariant: Detail as data
}

// String is the reason in English, empty for ReasonNone.
func (r Reason) String() string {
	switch r.Kind {
	case ReasonDuplicate:
		return fmt.Sprintf("%s has %d effects, wanted %s", r.Op, r.N, r.Promise)
	case ReasonDivergent:
		return fmt.Sprintf("%s got %d different results for one key, wanted %s", r.Op, r.N, r.Promise)
	case ReasonNoEffectYet:
		return fmt.Sprintf("%s has no effect yet and the run did not finish", r.Op)
	case ReasonNoEffect:
		return fmt.Sprintf("%s has 0 effects on a finished run, wanted %s", r.Op, r.Promise)
	case ReasonNeverDone:
		return fmt.Sprintf("%s never completes: no effect on a finished run, its last answer was %d (in progress), wanted %s", r.Op, r.N, r.Promise)
	case ReasonUnfinished:
		return "the run did not finish; more effects could still appear"
	case ReasonInvariant:
		return r.Invariant + ": " + r.Detail
	}
	return ""
}
