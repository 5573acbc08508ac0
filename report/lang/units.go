package lang

import "github.com/nicksnyder/go-i18n/v2/i18n"

// Unit is a metric's unit after its value, in the current language and in
// the plural form the language gives that value ("3 plăți", "1.5
// операции", "1958 мс"): value is the number as printed, so a fraction
// takes its own form. English and a unit without a message print the unit
// as the catalog names it.
func Unit(unit, value string) string { return Current().Unit(unit, value) }

// Unit is Unit in l.
func (l Lang) Unit(unit, value string) string {
	if unit == "" || l == English {
		return unit // English prints the catalog's unit as it always has
	}
	s, err := uiLocalizer(l, "unit."+unit).Localize(&i18n.LocalizeConfig{MessageID: "unit." + unit, PluralCount: value})
	if s == "" || err != nil {
		return unit
	}
	return s
}

// UnitHead is a metric's unit in a column head, with no value: "plăți".
func UnitHead(unit string) string { return Word("unithead", unit) }
