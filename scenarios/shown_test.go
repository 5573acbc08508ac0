package scenarios_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// controlStrings lists the exported strings reachable from v that hold a
// control character (other than a line feed or a tab), by their path.
func controlStrings(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if strings.ContainsFunc(v.String(), func(r rune) bool { return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f) }) {
			*out = append(*out, path)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			controlStrings(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				controlStrings(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			controlStrings(v.Index(i), path+"[]", out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			controlStrings(v.MapIndex(k), path+"[]", out)
		}
	}
}

// TestShownEscapesEveryText: a scenario file whose every text holds BEL
// and OSC escapes loads them as written; Shown leaves no control
// character in any text of the scenario (a text field added later and
// not escaped fails here), and does not touch what the simulation reads.
func TestShownEscapesEveryText(t *testing.T) {
	const file = "../testdata/scenarios/hostile/control-chars.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	var raw []string
	controlStrings(reflect.ValueOf(sc), "sc", &raw)
	for _, want := range []string{"sc.Summary", "sc.Params[].Doc", "sc.Expect[].Note", "sc.Expect[].Inherent", "sc.Lesson.Story",
		"sc.Lesson.Watch", "sc.Lesson.Why[]", "sc.Lesson.Fix", "sc.Lesson.Try[]", "sc.Outcome.Once", "sc.Sweep.Marks[].Label"} {
		if !strings.Contains(strings.Join(raw, " "), want) {
			t.Errorf("the fixture holds no control character in %s (loaded: %v)", want, raw)
		}
	}
	shown := sc.Shown()
	var left []string
	controlStrings(reflect.ValueOf(shown), "sc", &left)
	if len(left) > 0 {
		t.Errorf("Shown left control characters in %v", left)
	}
	if !strings.Contains(shown.Summary, `\a\x1b]0;PWN\a`) {
		t.Errorf("Summary shown as %q", shown.Summary)
	}
	if sc.Summary == shown.Summary || !strings.Contains(sc.Summary, "\a") {
		t.Errorf("Shown changed the scenario it was given: %q", sc.Summary)
	}
	for _, sem := range sc.Semantics {
		var digests []sim.Digest
		for _, s := range []*scenarios.Scenario{sc, shown} {
			cfg, err := s.Config(scenarios.Settings{Semantics: sem, Ops: s.Ops, Faults: s.Faults})
			if err != nil {
				t.Fatal(err)
			}
			_, w, err := search.Violates(cfg, sim.ExactlyOne, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			digests = append(digests, w.Digest())
		}
		if digests[0] != digests[1] {
			t.Errorf("%s: the shown scenario runs another trace", sem)
		}
	}
}

// TestShownIsTheCatalogScenario: a scenario with nothing to escape (every
// catalog entry) is shown as itself, so that what compares a scenario
// with the catalog's (its translations) still finds it.
func TestShownIsTheCatalogScenario(t *testing.T) {
	for _, sc := range scenarios.All() {
		if sc.Shown() != sc {
			t.Errorf("%s: Shown made a copy of a scenario with nothing to escape", sc.Name)
		}
	}
}
