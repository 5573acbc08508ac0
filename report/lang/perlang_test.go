package lang

import (
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"

	"github.com/oncesim/once/scenarios"
)

// Rendering in one language loads English's and that language's files
// only, and says exactly what the messages of every language say: every
// UI message in its singular and plural forms, and every lesson text.
func TestPerLanguageMessagesRenderAsAll(t *testing.T) {
	all := loaded()
	for _, l := range Languages() {
		own := messagesOf(l)
		for _, other := range Languages() {
			if loadedHere := len(own.uiMsgs[other]) > 0; loadedHere != (other == English || other == l) {
				t.Errorf("%s: messages of %s loaded: %v", l, other, loadedHere)
			}
			// Each file is parsed once: English rendering does not parse
			// English's files a second time as "its own language's".
			if got, want := len(own.uiMsgs[other]), len(all.uiMsgs[other]); got != 0 && got != want {
				t.Errorf("%s: %d messages of %s loaded, want %d (each once)", l, got, other, want)
			}
		}
		for _, msg := range all.uiMsgs[English] {
			for _, n := range []int{1, 2, 5, 21} {
				cfg := func() *i18n.LocalizeConfig {
					return &i18n.LocalizeConfig{MessageID: msg.ID, PluralCount: n, TemplateData: map[string]any{"Count": n}}
				}
				want, _ := all.uiLoc[l].Localize(cfg())
				got, _ := own.uiLoc[l].Localize(cfg())
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
				got, _ := own.lessonLoc[l].Localize(cfg())
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
