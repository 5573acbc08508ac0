package lang

import "strings"

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
