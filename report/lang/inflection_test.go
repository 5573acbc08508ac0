package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
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

// textsOf reads the locale files and the catalog's translations of
// language l (the texts a student reads in that language).
func textsOf(t *testing.T, l string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, glob := range []string{"locales/*." + l + ".toml", "../../scenarios/catalog/i18n/*." + l + ".toml"} {
		m, err := filepath.Glob(glob)
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: no files (%v)", glob, err)
		}
		for _, f := range m {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(data)
		}
	}
	return out
}

// Romanian is written with the comma below (ș ț), never the cedilla
// (ş ţ) that old keyboard layouts type: the two look alike on screen but
// are other letters to a search, a sort or a spell checker.
func TestRomanianUsesCommaBelow(t *testing.T) {
	cedilla := regexp.MustCompile(`[şţŞŢ]`)
	for f, text := range textsOf(t, "ro") {
		for i, line := range strings.Split(text, "\n") {
			if cedilla.MatchString(line) {
				t.Errorf("%s:%d: a cedilla (ş ţ) where Romanian writes a comma below (ș ț): %q", f, i+1, line)
			}
		}
	}
}

// Under a semantics is "cu at-least-once" and «при at-least-once»
// (GLOSSARY.md), not the calques "sub at-least-once" and «под
// at-least-once»; "Pub/Sub" is a product's name, not the preposition.
func TestNoCalqueUnderASemantics(t *testing.T) {
	sems := `(?:at-most-once|at-least-once|exactly-once|amo|alo|idem|txn|transactional)\b`
	calque := map[string]*regexp.Regexp{
		"ro": regexp.MustCompile(`(?:^|[^\p{L}/])(?:[Ss]ub)\s+` + sems),
		"ru": regexp.MustCompile(`(?:^|[^\p{L}/])(?:[Пп]од)\s+` + sems),
	}
	for l, re := range calque {
		for f, text := range textsOf(t, l) {
			for _, w := range re.FindAllString(text, -1) {
				t.Errorf("%s: %q: a calque; write %q", f, w, map[string]string{"ro": "cu …", "ru": "при …"}[l])
			}
		}
	}
}

// Russian text writes a time's unit in Cyrillic, as the trace and the
// reports print it ("80 с", "300 мс", "12 ч"; GLOSSARY.md), not "80 s";
// code in backquotes keeps the form a command takes.
func TestRussianTimeUnitsAreCyrillic(t *testing.T) {
	latin := regexp.MustCompile(`[0-9] (?:ms|s|h|min)\b`)
	for f, text := range textsOf(t, "ru") {
		parts := regexp.MustCompile("`").Split(text, -1)
		for i := 0; i < len(parts); i += 2 { // outside backquotes
			for _, w := range latin.FindAllString(parts[i], -1) {
				t.Errorf("%s: %q: a Latin unit in Russian text (want \"с\", \"мс\", \"ч\", \"мин\")", f, w)
			}
		}
	}
}

// A translated story, watch, why or fix is printed as its lines are
// broken (once explain indents them, the lesson prints them as they are),
// so a line that grew past the width when a word was added to it sticks
// out of its paragraph: every line of a multi-line text fits in 78
// characters, as the English texts are broken.
func TestTranslatedTextLinesFit(t *testing.T) {
	const width = 78
	for _, l := range []string{"ro", "ru"} {
		for f, text := range textsOf(t, l) {
			if !strings.Contains(f, "/i18n/") { // the catalog's texts, not the locale files' messages
				continue
			}
			inText := false
			for i, line := range strings.Split(text, "\n") {
				switch {
				case !inText && strings.HasSuffix(line, `= """`):
					inText = true
				case inText && line == `"""`:
					inText = false
				case inText && utf8.RuneCountInString(line) > width:
					t.Errorf("%s:%d: %d characters, over %d: break the paragraph again", f, i+1, utf8.RuneCountInString(line), width)
				}
			}
		}
	}
}
