package usererr

import (
	"errors"
	"testing"
)

// pflag's parse errors are worded mistakes with their fields; their
// English text stays pflag's; another error passes through.
func TestFlag(t *testing.T) {
	for _, tc := range []struct{ in, id, field, value string }{
		{"unknown flag: --bogus", "unknown_flag", "Flag", "--bogus"},
		{"unknown shorthand flag: 'q' in -q", "unknown_shorthand", "Flag", "q"},
		{"flag needs an argument: --seed", "flag_needs_argument", "Flag", "--seed"},
		{"flag needs an argument: 's' in -s", "flag_needs_argument", "Flag", "s"},
	} {
		err := Flag(errors.New(tc.in))
		var e *Error
		if !errors.As(err, &e) || e.ID != tc.id || e.Data[tc.field] != tc.value || err.Error() != tc.in {
			t.Errorf("Flag(%q) = %#v, want id %s with %s=%s and the same text", tc.in, err, tc.id, tc.field, tc.value)
		}
	}
	other := errors.New(`invalid argument "x" for "--seed" flag: must be a non-negative integer`)
	if Flag(other) != other {
		t.Error("an error of another form was rewritten")
	}
}
