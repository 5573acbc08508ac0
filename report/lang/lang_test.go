package lang

import (
	"testing"
)

func TestFromLocale(t *testing.T) {
	cases := map[string]Lang{
		"ro_RO.UTF-8":     Romanian,
		"ro_MD":           Romanian,
		"ro":              Romanian,
		"ru_RU.utf8":      Russian,
		"ru_UA.UTF-8@foo": Russian,
		"en_US.UTF-8":     English,
		"en_GB":           English,
		"de_DE.UTF-8":     English, // not supported: English
		"ja_JP":           English,
		"C":               English,
		"C.UTF-8":         English,
		"POSIX":           English,
		"":                English,
		"not a locale!":   English,
	}
	for locale, want := range cases {
		if got := FromLocale(locale); got != want {
			t.Errorf("FromLocale(%q) = %s, want %s", locale, got, want)
		}
	}
}

func TestFromEnvOrder(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, English},
		{map[string]string{"LANG": "ro_RO.UTF-8"}, Romanian},
		{map[string]string{"LANG": "ro_RO.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, Russian},
		{map[string]string{"LANG": "ro_RO.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8", "LC_ALL": "en_US.UTF-8"}, English},
		{map[string]string{"LANG": "ru_RU.UTF-8", "LC_ALL": ""}, Russian}, // empty means unset
		{map[string]string{"LANG": "ro_RO.UTF-8", "LC_ALL": "C"}, English},
	}
	for _, c := range cases {
		if got := FromEnv(env(c.env)); got != c.want {
			t.Errorf("FromEnv(%v) = %s, want %s", c.env, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{"en": English, "ro": Romanian, "RU": Russian, " ro ": Romanian} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "de", "ro_RO", "english"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// Counts take CLDR plural forms: Russian has one, few and many.
func TestPluralForms(t *testing.T) {
	cases := []struct {
		l    Lang
		n    int
		want string
	}{
		{Russian, 1, "1 операция"},
		{Russian, 2, "2 операции"},
		{Russian, 5, "5 операций"},
		{Russian, 11, "11 операций"},
		{Russian, 21, "21 операция"},
		{Russian, 24, "24 операции"},
		{Russian, 0, "0 операций"},
		{Romanian, 1, "1 operație"},
		{Romanian, 2, "2 operații"},
		{Romanian, 19, "19 operații"},
		{Romanian, 20, "20 de operații"},
		{Romanian, 101, "101 operații"},
		{English, 1, "1 operation"},
		{English, 5, "5 operations"},
		{Russian, 3, "3 события"},
		{Russian, 25, "25 событий"},
	}
	for _, c := range cases {
		id := "count.operations"
		if c.l == Russian && (c.n == 3 || c.n == 25) {
			id = "count.events"
		}
		if got := c.l.N(id, c.n); got != c.want {
			t.Errorf("%s.N(%s, %d) = %q, want %q", c.l, id, c.n, got, c.want)
		}
	}
}

func TestCurrentAndWord(t *testing.T) {
	defer Set(Current())
	Set(Russian)
	if got := T("explain.story"); got != "История" {
		t.Errorf("T(explain.story) in ru = %q", got)
	}
	if got := Word("verdict", "duplicated"); got != "дублирована" {
		t.Errorf("Word(verdict, duplicated) in ru = %q", got)
	}
	if got := Word("verdict", "no such word"); got != "no such word" {
		t.Errorf("an unknown word must stay as it is, got %q", got)
	}
	Set(English)
	if got := Tf("run.minimal", map[string]any{"Minimal": 1, "Found": 3}); got != "minimal faults (1 of the run's 3):" {
		t.Errorf("Tf in en = %q", got)
	}
}

func TestLessonFallsBackToEnglish(t *testing.T) {
	const english = "The client retries.\n"
	if got := Romanian.Lesson("no-such-scenario", "story", english); got != english {
		t.Errorf("a scenario without translation: got %q, want the English", got)
	}
	if got := English.Lesson("double-billing", "story", english); got != english {
		t.Errorf("English must be the YAML's text, got %q", got)
	}
	got := Romanian.Lesson("double-billing", "why.alo", "x\n")
	if got == "x\n" || got[len(got)-1] != '\n' || got[len(got)-2] == '\n' {
		t.Errorf("Romanian why.alo = %q: want the translation, ending in one newline as the English does", got)
	}
	if got := Romanian.Lesson("double-billing", "why.alo", "x"); got[len(got)-1] == '\n' {
		t.Errorf("translation must end as the English does (no newline), got %q", got)
	}
}
