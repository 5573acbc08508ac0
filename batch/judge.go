package batch

import "github.com/oncesim/once/scenarios"

// Verdict is the three-valued answer to "did the expectation hold over
// the batch?": runs cut by a budget can leave it Unknown, never a pass
// and never a failure — the same answer `once run` gives each of them.
type Verdict uint8

// The verdicts.
const (
	Held Verdict = iota + 1
	Failed
	Unknown
)

// String returns "held", "failed" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Held:
		return "held"
	case Failed:
		return "failed"
	case Unknown:
		return "unknown"
	}
	return "?"
}

// Unfinished is the number of runs cut by a budget.
func (t *Tally) Unfinished() int { return t.Runs - t.Finished }

// JudgeClaim judges one claim over the tally. An "all runs" claim fails
// when a run shows it broken (a lost operation on a finished run, a
// duplicate, a broken invariant: a cut run can show a duplicate or a
// broken invariant too, they never go away), and is unknown when nothing
// broke it but some runs did not finish. A "some run" claim holds when a
// run showed it, and is unknown when none did but some runs did not
// finish.
func (t *Tally) JudgeClaim(c scenarios.Claim) Verdict {
	var shown bool
	all := true
	switch c {
	case scenarios.ClaimExactlyOnce:
		shown = t.WithDup > 0 || t.WithLost > 0 || t.InvViolated > 0
	case scenarios.ClaimAtMostOnce:
		shown = t.WithDup > 0
	case scenarios.ClaimAtLeastOnce:
		shown = t.WithLost > 0
	case scenarios.ClaimInvariants:
		shown = t.InvViolated > 0
	case scenarios.ClaimDuplicates:
		shown, all = t.WithDup > 0, false
	case scenarios.ClaimLosses:
		shown, all = t.WithLost > 0, false
	case scenarios.ClaimRefusals:
		shown, all = t.WithRefused > 0, false
	case scenarios.ClaimNeverDone:
		shown, all = t.NeverDone > 0, false
	case scenarios.ClaimViolation:
		shown, all = t.InvViolated > 0, false
	default:
		return Failed
	}
	switch {
	case all && shown:
		return Failed
	case !all && shown:
		return Held
	case t.Unfinished() > 0:
		return Unknown
	case all:
		return Held
	}
	return Failed
}

// Judge judges every claim of e over the tally: Failed with the first
// claim that failed, else Unknown with the first claim left unknown, else
// Held (and no claim).
func (t *Tally) Judge(e *scenarios.Expectation) (Verdict, scenarios.Claim) {
	var unknown scenarios.Claim
	for _, c := range e.Claims {
		switch t.JudgeClaim(c) {
		case Failed:
			return Failed, c
		case Unknown:
			if unknown == 0 {
				unknown = c
			}
		}
	}
	if unknown != 0 {
		return Unknown, unknown
	}
	return Held, 0
}
