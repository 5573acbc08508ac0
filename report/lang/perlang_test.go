package lang

import (
	"io/fs"
	"path"
	"strings"

	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"

	"github.com/oncesim/once/scenarios"
)

// Rendering in one language loads English's and that language's files
// only, part by part, and says exactly what the messages of every
// language say: every UI message in its singular and plural forms, and
// every lesson text.
func TestPerLanguageMessagesRenderAsAll(t *testing.T) {
	all := loaded()
	for _, l := range Languages() {
		own := lessonsOf[l]()
		for _, other := range Languages() {
			if loadedHere := len(own.lessonMsgs[other]) > 0; loadedHere != (other == l && l != English) {
				t.Errorf("%s: lessons of %s loaded: %v", l, other, loadedHere)
			}
			if n := len(own.uiMsgs[other]); n != 0 {
				t.Errorf("%s: the lessons' loader parsed %d interface messages of %s", l, n, other)
			}
		}
		for _, msg := range all.uiMsgs[English] {
			for _, n := range []int{1, 2, 5, 21} {
				cfg := func() *i18n.LocalizeConfig {
					return &i18n.LocalizeConfig{MessageID: msg.ID, PluralCount: n, TemplateData: map[string]any{"Count": n}}
				}
				want, _ := all.uiLoc[l].Localize(cfg())
				got, _ := uiLocalizer(l, msg.ID).Localize(cfg())
				if got != want {
					t.Errorf("%s %s (%d): %q, want %q", l, msg.ID, n, got, want)
				}
			}
		}
		for scenario, msgs := range all.lessonMsgs[l] {
			for _, msg := range msgs {
				cfg := func() *i18n.LocalizeConfig {
					return &i18n.LocalizeConfig{
						DefaultMessage: &i18n.Message{ID: scenario + "." + msg.ID, Other: "english"},
						TemplateParser: template.IdentityParser{},
					}
				}
				want, _ := all.lessonLoc[l].Localize(cfg())
				got, _ := lessonLocalizer(l).Localize(cfg())
				if got != want || got == "english" {
					t.Errorf("%s lesson %s.%s: %q, want %q", l, scenario, msg.ID, got, want)
				}
			}
		}
	}
	if len(all.lessonMsgs[Romanian]) == 0 || len(scenarios.All()) == 0 {
		t.Fatal("no lesson translations loaded")
	}
}

// The part index, read from the English files by a scan of their keys, is
// exactly the ids go-i18n parses from them, each in its own part; and
// every other language's part holds only ids of the same English part
// (else it would fall back to English for a message it translates).
func TestPartIndexIsTheParsedIDs(t *testing.T) {
	all := loaded()
	index := partIndex()
	parsed := map[string]bool{}
	for _, msg := range all.uiMsgs[English] {
		parsed[msg.ID] = true
		if _, ok := index[msg.ID]; !ok {
			t.Errorf("message %q is in no part of the index", msg.ID)
		}
	}
	for id := range index {
		if !parsed[id] {
			t.Errorf("the index has %q, which go-i18n does not parse", id)
		}
	}
	for _, l := range Languages() {
		files, err := fs.Glob(localesFS, "locales/*."+string(l)+".toml")
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no message files (%v)", l, err)
		}
		for _, file := range files {
			part := strings.TrimSuffix(path.Base(file), "."+string(l)+".toml")
			mf, err := parseFile(localesFS, file, l)
			if err != nil {
				t.Fatal(err)
			}
			for _, msg := range mf.Messages {
				if got := index[msg.ID]; got != part {
					t.Errorf("%s: %q is in English's part %q", file, msg.ID, got)
				}
			}
		}
	}
	if len(index) < 100 {
		t.Fatalf("the index has %d ids", len(index))
	}
}
