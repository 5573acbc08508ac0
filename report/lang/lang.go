// Package lang holds the languages a student can read once in (English,
// Romanian, Russian) and looks up the texts in them: the user interface's
// strings (locales/<part>.<lang>.toml) and the catalog's lesson texts (the
// scenarios package's translation files, with English in the YAML).
// Messages are go-i18n v2 message files; languages are matched with
// golang.org/x/text/language, and counts take the language's CLDR plural
// forms ("1 операция", "2 операции", "5 операций").
//
// JSON output never goes through this package: it is a contract, in English.
package lang

import (
	"fmt"
	"strings"
	"sync/atomic"

	"golang.org/x/text/language"
)

// A Lang is a language once's texts are written in.
type Lang string

// The languages, English first: it is the source every other one translates.
const (
	English  Lang = "en"
	Romanian Lang = "ro"
	Russian  Lang = "ru"
)

// Languages returns every language, English first.
func Languages() []Lang { return []Lang{English, Romanian, Russian} }

// Translated returns the languages other than English.
func Translated() []Lang { return []Lang{Romanian, Russian} }

// Tag is the language's BCP 47 tag.
func (l Lang) Tag() language.Tag { return language.Make(string(l)) }

// Parse reads a --lang value: en, ro or ru (any case).
func Parse(s string) (Lang, error) {
	v := Lang(strings.ToLower(strings.TrimSpace(s)))
	for _, l := range Languages() {
		if v == l {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown language %q (want en, ro or ru)", s)
}

// matcher picks the nearest supported language for a locale's language.
var matcher = language.NewMatcher([]language.Tag{language.English, language.Romanian, language.Russian})

// FromLocale reads a POSIX locale name ("ro_RO.UTF-8", "ru_RU.utf8@euro",
// "C") as the nearest language; anything it does not recognise is English.
func FromLocale(locale string) Lang {
	name, _, _ := strings.Cut(locale, ".")
	name, _, _ = strings.Cut(name, "@")
	if name == "" || name == "C" || name == "POSIX" {
		return English
	}
	tag, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
	if err != nil {
		return English
	}
	_, i, conf := matcher.Match(tag)
	if conf == language.No {
		return English
	}
	return Languages()[i]
}

// FromEnv picks the language the way POSIX picks the locale of messages:
// the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty.
// getenv is os.Getenv, or a test's stand-in.
func FromEnv(getenv func(string) string) Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			return FromLocale(v)
		}
	}
	return English
}

// current is the language of this process's texts, English until Set.
var current atomic.Value

// Set makes l the language of every text rendered from now on; the
// command line calls it once, before it renders anything.
func Set(l Lang) { current.Store(l) }

// Current is the language texts are rendered in.
func Current() Lang {
	if l, ok := current.Load().(Lang); ok {
		return l
	}
	return English
}
