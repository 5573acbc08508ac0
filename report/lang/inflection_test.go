package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// An English term in Russian text stays uninflected (GLOSSARY.md: "с
// таким consumer", "у broker"), never declined with a hyphenated ending
// ("consumer-а", "broker-у", "offset-ы"): the ending mixes two
// alphabets, and the same term then reads two ways on one screen.
func TestRussianLeavesEnglishTermsUninflected(t *testing.T) {
	hyphenated := regexp.MustCompile(`[A-Za-z]{2,}-(?:а|у|ом|ов|ами|ах|ы|е)(?:[^\p{L}]|$)`) // RE2's \b is ASCII-only
	var files []string
	for _, glob := range []string{"locales/*.ru.toml", "../../scenarios/catalog/i18n/*.ru.toml"} {
		m, err := filepath.Glob(glob)
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: no files (%v)", glob, err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range hyphenated.FindAllString(string(data), -1) {
			t.Errorf("%s: %q: an English term declined with a Russian ending", f, w)
		}
	}
}

// Times in Romanian and Russian running text are written in the
// language's form, the unit apart ("5 s", "30 с", "1,5 s"), as the
// trace prints them (Duration); a parameter's value as typed
// (ttl=30s) and code in backquotes keep the form a command takes.
func TestTimesInRunningTextAreLocalised(t *testing.T) {
	glued := regexp.MustCompile("(?:^|[^=\\w.:`/-])[0-9]+(?:\\.[0-9]+)?(?:ms|s)\\b")
	for _, l := range []string{"ro", "ru"} {
		var files []string
		for _, glob := range []string{"locales/*." + l + ".toml", "../../scenarios/catalog/i18n/*." + l + ".toml"} {
			m, _ := filepath.Glob(glob)
			files = append(files, m...)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no texts found", l)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parts := regexp.MustCompile("`").Split(string(data), -1)
			for i := 0; i < len(parts); i += 2 { // outside backquotes
				for _, w := range glued.FindAllString(parts[i], -1) {
					t.Errorf("%s: %q: a time in English form in %s text (want \"5 s\"/\"5 с\")", f, w, l)
				}
			}
		}
	}
}
