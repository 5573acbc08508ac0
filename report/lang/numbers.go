package lang

import (
	"regexp"
	"strings"
)

// Decimal is a number printed with a decimal point ("1.555", "38.0") in
// the current language's form: unchanged in English, with a decimal comma
// in Romanian and Russian ("1,555", "38,0").
func Decimal(number string) string { return Current().Decimal(number) }

// Decimal is Decimal in l.
func (l Lang) Decimal(number string) string {
	if l == English {
		return number
	}
	return strings.Replace(number, ".", ",", 1)
}

// Percent is a percentage printed with a decimal point ("38.0") followed
// by its sign in the current language's form: "38.0%" in English, "38,0 %"
// in Romanian and Russian, which set the sign apart by a
// space.
func Percent(number string) string { return Current().Percent(number) }

// Percent is Percent in l.
func (l Lang) Percent(number string) string {
	if l == English {
		return number + "%"
	}
	return l.Decimal(number) + " %"
}

// durationForm is a virtual time as sim.Time prints it: "481ms", "1.555s".
var durationForm = regexp.MustCompile(`^(-?[0-9]+(?:\.[0-9]+)?)(ms|s)$`)

// Duration is a virtual time printed as sim.Time prints it ("481ms",
// "1.555s") in the current language's form: unchanged in English (the
// trace's contract), the number with the language's decimal separator, a
// space and the language's unit otherwise ("481 мс", "1,555 s"). Anything
// else is returned as given.
func Duration(s string) string { return Current().Duration(s) }

// Duration is Duration in l.
func (l Lang) Duration(s string) string {
	m := durationForm.FindStringSubmatch(s)
	if l == English || m == nil {
		return s
	}
	return l.Decimal(m[1]) + " " + l.Unit(m[2], m[1])
}

// decimalForm is a plain number with a decimal point: "0.4".
var decimalForm = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)

// Value is a setting's value shown on a screen (a swept point, a range's
// end) in the current language's form: a number with its decimal
// separator ("0,4"), a virtual time as Duration shows it ("15 s");
// anything else as given. Where the value is syntax to type (name=value)
// it stays as given.
func Value(s string) string { return Current().Value(s) }

// Value is Value in l.
func (l Lang) Value(s string) string {
	if decimalForm.MatchString(s) {
		return l.Decimal(s)
	}
	return l.Duration(s)
}
