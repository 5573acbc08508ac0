package lang

import (
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// A virtual time reads in the language's form: a decimal comma, a space
// and the language's unit in Romanian and Russian; English keeps the
// trace's contract; what is not a time is left alone.
func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		l        Lang
		in, want string
	}{
		{English, "481ms", "481ms"},
		{English, "1.555s", "1.555s"},
		{Romanian, "481ms", "481 ms"},
		{Romanian, "1.555s", "1,555 s"},
		{Russian, "481ms", "481 мс"},
		{Russian, "1.555s", "1,555 с"},
		{Russian, "62s", "62 с"},
		{Russian, "op-1", "op-1"},
		{Romanian, "5", "5"},
		{Romanian, "ms", "ms"},
	} {
		if got := tc.l.Duration(tc.in); got != tc.want {
			t.Errorf("%s: Duration(%q) = %q, want %q", tc.l, tc.in, got, tc.want)
		}
	}
	for _, x := range []sim.Time{0, 7, 999, 1000, 1555, 61500, 120000} {
		for _, l := range []Lang{Romanian, Russian} {
			if got := l.Duration(x.String()); strings.ContainsAny(got, ".") || !strings.Contains(got, " ") {
				t.Errorf("%s: Duration(%s) = %q: a decimal point or no space before the unit", l, x, got)
			}
		}
	}
}

// A violation's sentence quotes its times in the language's form.
func TestViolationTimesLocalised(t *testing.T) {
	v := sim.NewViolation("violation.right-totals.over", 0, "booking 2 shows a total paid of 311 at 1.325s, but its payments sum to 207: a payment was counted twice",
		"Booking", "2", "Total", "311", "At", "1.325s", "Paid", "207")
	if got := Romanian.Violation(v); !strings.Contains(got, "1,325 s") {
		t.Errorf("ro: %q does not quote the time as 1,325 s", got)
	}
	if got := Russian.Violation(v); !strings.Contains(got, "1,325 с") {
		t.Errorf("ru: %q does not quote the time as 1,325 с", got)
	}
}
