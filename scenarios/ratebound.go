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
	reason, ok := oneLineReason(e.RateBound.Text)
	if !ok {
		return l.errAt(e.RateBound, "expect.rate-bound: say in one line why the claims hold at the row's rates and not at any rate (rate-bound: \"…\")")
	}
	x.RateBound = reason
	return nil
}

// oneLineReason is the reason an expect key (rate-bound, inherent) gives,
// trimmed, and whether it is one: one line of words, not a bare
// true/false.
func oneLineReason(text string) (string, bool) {
	reason := strings.TrimSpace(text)
	return reason, reason != "" && !strings.Contains(reason, "\n") && reason != "true" && reason != "false"
}
