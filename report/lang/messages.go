package lang

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"

	lessoni18n "github.com/oncesim/once/scenarios/catalog/i18n"
)

//go:embed locales/*.toml
var localesFS embed.FS

// messages is every loaded message: the UI's in one bundle, the lessons'
// in another under ids prefixed by their scenario ("double-billing.story").
type messages struct {
	ui, lessons *i18n.Bundle
	uiLoc       map[Lang]*i18n.Localizer
	lessonLoc   map[Lang]*i18n.Localizer
	// The messages of every file, by language, for the tests that check
	// that each has its translation.
	uiMsgs     map[Lang][]*i18n.Message
	lessonMsgs map[Lang]map[string][]*i18n.Message // language → scenario → its messages (unprefixed ids)
}

// loaded is every language's messages (the tests read them all).
var loaded = sync.OnceValue(func() *messages { return mustLoad(Languages()) })

// lessonsOf holds, per language, the lesson translations in that
// language alone (the interface's messages are loaded per part:
// uiLocalizer). A command prints in one language, and parsing the others'
// files cost an English `once matrix` more CPU than a thousand of its
// runs.
var lessonsOf = func() map[Lang]func() *messages {
	m := map[Lang]func() *messages{}
	for _, l := range Languages() {
		m[l] = sync.OnceValue(func() *messages {
			ms, err := loadLangs(nil, lessoni18n.FS, []Lang{l})
			if err != nil {
				panic("lang: embedded lesson files are invalid: " + err.Error())
			}
			return ms
		})
	}
	return m
}()

// lessonLocalizer is the localizer of the lesson texts in l.
func lessonLocalizer(l Lang) *i18n.Localizer {
	if f, ok := lessonsOf[l]; ok {
		return f().lessonLoc[l]
	}
	return loaded().lessonLoc[l]
}

// mustLoad loads the embedded files of langs; they are part of the program.
func mustLoad(langs []Lang) *messages {
	m, err := loadLangs(localesFS, lessoni18n.FS, langs)
	if err != nil {
		panic("lang: embedded message files are invalid: " + err.Error())
	}
	return m
}

// load parses the UI's message files (locales/<part>.<lang>.toml in ui) and the
// lessons' (<scenario>.<lang>.toml in lessons).
func load(ui, lessons fs.FS) (*messages, error) { return loadLangs(ui, lessons, Languages()) }

// loadLangs is load of the files of langs only (a lesson file's name and
// language are checked whatever its language); with ui nil, of the
// lessons' files only.
func loadLangs(ui, lessons fs.FS, langs []Lang) (*messages, error) {
	m := &messages{
		ui: i18n.NewBundle(English.Tag()), lessons: i18n.NewBundle(English.Tag()),
		uiLoc: map[Lang]*i18n.Localizer{}, lessonLoc: map[Lang]*i18n.Localizer{},
		uiMsgs: map[Lang][]*i18n.Message{}, lessonMsgs: map[Lang]map[string][]*i18n.Message{},
	}
	for _, b := range []*i18n.Bundle{m.ui, m.lessons} {
		b.RegisterUnmarshalFunc("toml", unmarshalTOML)
	}
	for _, l := range langs {
		if ui == nil {
			break
		}
		// One language's interface messages may be split over several files
		// (locales/<part>.<lang>.toml, one part per surface: core, tui,
		// lesson, …); an id defined twice is an error, not a silent override.
		files, err := fs.Glob(ui, "locales/*."+string(l)+".toml")
		if err != nil {
			return nil, fmt.Errorf("interface messages: %w", err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("interface messages: no locales/*.%s.toml", l)
		}
		defined := map[string]string{}
		for _, file := range files {
			mf, err := parseFile(ui, file, l)
			if err != nil {
				return nil, err
			}
			for _, msg := range mf.Messages {
				if prev, dup := defined[msg.ID]; dup {
					return nil, fmt.Errorf("%s: message %q is already defined in %s", file, msg.ID, prev)
				}
				defined[msg.ID] = file
			}
			if err := m.ui.AddMessages(l.Tag(), mf.Messages...); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			m.uiMsgs[l] = append(m.uiMsgs[l], mf.Messages...)
		}
	}
	files, err := fs.Glob(lessons, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("lesson translations: %w", err)
	}
	for _, file := range files {
		scenario, code, ok := splitLessonFile(file)
		if !ok {
			return nil, fmt.Errorf("%s: want <scenario>.<lang>.toml", file)
		}
		l, err := Parse(code)
		if err != nil || l == English {
			return nil, fmt.Errorf("%s: language %q: want ro or ru (English is in the scenario's YAML)", file, code)
		}
		if !slices.Contains(langs, l) {
			continue
		}
		mf, err := parseFile(lessons, file, l)
		if err != nil {
			return nil, err
		}
		if m.lessonMsgs[l] == nil {
			m.lessonMsgs[l] = map[string][]*i18n.Message{}
		}
		m.lessonMsgs[l][scenario] = mf.Messages
		prefixed := make([]*i18n.Message, len(mf.Messages))
		for i, msg := range mf.Messages {
			c := *msg
			c.ID = scenario + "." + msg.ID
			prefixed[i] = &c
		}
		if err := m.lessons.AddMessages(l.Tag(), prefixed...); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	for _, l := range langs {
		m.uiLoc[l] = i18n.NewLocalizer(m.ui, string(l))
		m.lessonLoc[l] = i18n.NewLocalizer(m.lessons, string(l))
	}
	return m, nil
}

// parseFile reads one message file and checks that its language is l.
func parseFile(fsys fs.FS, file string, l Lang) (*i18n.MessageFile, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("message file: %w", err)
	}
	mf, err := i18n.ParseMessageFileBytes(data, file, map[string]i18n.UnmarshalFunc{"toml": unmarshalTOML})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if mf.Tag != l.Tag() {
		return nil, fmt.Errorf("%s: language %s, want %s", file, mf.Tag, l)
	}
	return mf, nil
}

// splitLessonFile splits "double-billing.ro.toml" into its scenario and
// language.
func splitLessonFile(file string) (scenario, code string, ok bool) {
	base := strings.TrimSuffix(path.Base(file), ".toml")
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return "", "", false
	}
	return base[:i], base[i+1:], true
}

// T is the UI message id in the current language.
func T(id string) string { return Current().T(id) }

// N is the UI message id for a count n in the current language, in the
// plural form the language gives n; the message spells the number as
// {{.Count}}.
func N(id string, n int) string { return Current().N(id, n) }

// Tf is the UI message id in the current language with its {{.Name}}
// placeholders filled from data.
func Tf(id string, data map[string]any) string { return Current().Tf(id, data) }

// Word is an English word or phrase the program prints as a value (a
// verdict "duplicated", an end "time budget exhausted"), looked up as
// section.<word> in the current language; a word the section lacks stays
// as it is.
func Word(section, english string) string {
	id := section + "." + english
	if s := Current().T(id); s != id {
		return s
	}
	return english
}

// T is the UI message id in l, falling back to English. An id English
// lacks is a programming error the tests catch; it renders as the id.
func (l Lang) T(id string) string {
	s, err := uiLocalizer(l, id).Localize(&i18n.LocalizeConfig{MessageID: id})
	if s == "" && err != nil {
		return id
	}
	return s
}

// Tf is Tf in l.
func (l Lang) Tf(id string, data map[string]any) string {
	s, err := uiLocalizer(l, id).Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if s == "" && err != nil {
		return id
	}
	return s
}

// N is the UI message id for the count n in l, in l's plural form for n.
func (l Lang) N(id string, n int) string {
	s, err := uiLocalizer(l, id).Localize(&i18n.LocalizeConfig{
		MessageID: id, PluralCount: n, TemplateData: map[string]any{"Count": n},
	})
	if s == "" && err != nil {
		return fmt.Sprintf("%d %s", n, id)
	}
	return s
}

// Lesson is a catalog scenario's lesson field ("summary", "story",
// "watch", "fix", "why.alo") in the current language; english is the
// scenario's own text, returned when the field has no translation (always,
// for English). Only catalog scenarios have translations: a scenario from
// a user's file must not borrow a catalog scenario's text by its name, so
// the caller passes its English straight through for those.
func Lesson(scenario, field, english string) string {
	return Current().Lesson(scenario, field, english)
}

// Lesson is Lesson in l.
func (l Lang) Lesson(scenario, field, english string) string {
	if l == English || english == "" {
		return english
	}
	id := scenario + "." + field
	s, err := lessonLocalizer(l).Localize(&i18n.LocalizeConfig{
		DefaultMessage: &i18n.Message{ID: id, Other: english},
		TemplateParser: template.IdentityParser{}, // lesson texts are prose, never templates
	})
	if err != nil || s == "" {
		return english
	}
	// A TOML string and a YAML block end (or not) in a newline each their
	// own way; the translation ends as the English does.
	return strings.TrimRight(s, "\n") + english[len(strings.TrimRight(english, "\n")):]
}
