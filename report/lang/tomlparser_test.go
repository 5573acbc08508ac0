package lang

import (
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	burntsushi "github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/oncesim/once/scenarios"
)

// The message files are read with go-toml v2 (several times faster than
// BurntSushi's parser: an English command parses its interface messages at
// start-up). Every embedded file, interface and lessons, in every language,
// gives exactly the messages BurntSushi's parser gives.
func TestTOMLParsersAgree(t *testing.T) {
	check := func(fsys fs.FS, pattern string) int {
		files, err := fs.Glob(fsys, pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			data, err := fs.ReadFile(fsys, file)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := i18n.ParseMessageFileBytes(data, file, map[string]i18n.UnmarshalFunc{"toml": unmarshalTOML})
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			theirs, err := i18n.ParseMessageFileBytes(data, file, map[string]i18n.UnmarshalFunc{"toml": burntsushi.Unmarshal})
			if err != nil {
				t.Fatalf("%s (BurntSushi): %v", file, err)
			}
			byID := func(a, b *i18n.Message) int { return strings.Compare(a.ID, b.ID) }
			slices.SortFunc(ours.Messages, byID) // go-i18n walks a map: its order is random
			slices.SortFunc(theirs.Messages, byID)
			if len(ours.Messages) == 0 || !reflect.DeepEqual(ours.Messages, theirs.Messages) {
				t.Errorf("%s: %d messages, BurntSushi's parser reads %d, or they differ", file, len(ours.Messages), len(theirs.Messages))
			}
		}
		return len(files)
	}
	if n := check(localesFS, "locales/*.toml"); n < 3 {
		t.Errorf("%d interface message files", n)
	}
	if n := check(scenarios.LessonTranslations(), "*.toml"); n < 2 {
		t.Errorf("%d lesson translation files", n)
	}
}
