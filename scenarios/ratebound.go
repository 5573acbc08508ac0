package scenarios

import "strings"

// compileRateBound reads a row's `rate-bound:` line: why its every-run
// claims hold at the row's own fault rates and not at any rate. Only a
// row with such a claim has something to bound, and the reason is one
// line a reader can check.
func (l *loader) compileRateBound(e *expectSpec, x *Expectation) error {
	if !e.RateBound.Set {
		return nil
	}
	if len(x.HoldsClaims()) == 0 {
		return l.errAt(e.RateBound, "expect.rate-bound: the row shows no every-run claim (=1, <=1, >=1, invariants): nothing to bound")
	}
	reason := strings.TrimSpace(e.RateBound.Text)
	if reason == "" || strings.Contains(reason, "\n") || reason == "true" || reason == "false" {
		return l.errAt(e.RateBound, "expect.rate-bound: say in one line why the claims hold at the row's rates and not at any rate (rate-bound: \"…\")")
	}
	x.RateBound = reason
	return nil
}
