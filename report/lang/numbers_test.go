package lang

import (
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestDecimalAndPercentForms(t *testing.T) {
	for _, c := range []struct {
		l                    Lang
		number, dec, percent string
	}{
		{English, "38.0", "38.0", "38.0%"},
		{Romanian, "38.0", "38,0", "38,0 %"},
		{Russian, "1.555", "1,555", "1,555 %"},
		{Russian, "0", "0", "0 %"},
	} {
		if got := c.l.Decimal(c.number); got != c.dec {
			t.Errorf("%s Decimal(%q) = %q, want %q", c.l, c.number, got, c.dec)
		}
		if got := c.l.Percent(c.number); got != c.percent {
			t.Errorf("%s Percent(%q) = %q, want %q", c.l, c.number, got, c.percent)
		}
	}
}

// A localised decimal reads back as the same number once its comma is a
// point again, and has no point left in Romanian and Russian.
func TestDecimalKeepsTheNumber(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.Float64Range(-1e6, 1e6).Draw(t, "f")
		prec := rapid.IntRange(0, 4).Draw(t, "prec")
		s := strconv.FormatFloat(f, 'f', prec, 64)
		for _, l := range Translated() {
			got := l.Decimal(s)
			if strings.Contains(got, ".") {
				t.Fatalf("%s Decimal(%q) = %q still has a decimal point", l, s, got)
			}
			if back := strings.Replace(got, ",", ".", 1); back != s {
				t.Fatalf("%s Decimal(%q) = %q reads back as %q", l, s, got, back)
			}
		}
		if English.Decimal(s) != s {
			t.Fatalf("English changed %q", s)
		}
	})
}

// TestValueForms: a setting's value on a screen, per language.
func TestValueForms(t *testing.T) {
	for _, c := range []struct {
		l        Lang
		in, want string
	}{
		{English, "0.4", "0.4"}, {Romanian, "0.4", "0,4"}, {Russian, "15s", "15 с"},
		{Romanian, "100ms", "100 ms"}, {Romanian, "per-attempt", "per-attempt"}, {Russian, "3", "3"},
	} {
		if got := c.l.Value(c.in); got != c.want {
			t.Errorf("%s.Value(%q) = %q, want %q", c.l, c.in, got, c.want)
		}
	}
}
