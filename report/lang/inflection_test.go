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
