package lang

import (
	"strings"
	"testing"
	"unicode"

	"github.com/oncesim/once/scenarios"
)

// lessonSource lists the lesson fields a catalog scenario writes in
// English, with the message id each has in a translation file.
func lessonSource(sc *scenarios.Scenario) []string {
	var ids []string
	add := func(id, text string) {
		if strings.TrimSpace(text) != "" {
			ids = append(ids, id)
		}
	}
	add("summary", sc.Summary)
	add("story", sc.Lesson.Story)
	add("watch", sc.Lesson.Watch)
	add("fix", sc.Lesson.Fix)
	for sem, why := range sc.Lesson.Why {
		add("why."+sem.Alias(), why)
	}
	for i := range sc.Expect {
		e := &sc.Expect[i]
		add("note."+e.RowKey(sc), e.Note)
		add("rate-bound."+e.RowKey(sc), e.RateBound)
	}
	for _, p := range sc.Params {
		add("param."+p.Name, p.Doc)
	}
	for _, m := range sc.Sweep.Marks {
		add("mark."+m.Label, m.Label)
	}
	add("follows", sc.Lesson.Follows)
	for _, r := range sc.Lesson.Scaled {
		add("scaled."+r.Name, r.Why)
		add("scaled-name."+r.Name, r.Name)
		add("scaled-real."+r.Name, r.Real)
		if r.Param == "" {
			add("scaled-here."+r.Name, r.Here)
		}
	}
	return sortedCopy(ids)
}

// lessonEnglish maps each lesson id of sc to its English text.
func lessonEnglish(sc *scenarios.Scenario) map[string]string {
	m := map[string]string{"summary": sc.Summary, "story": sc.Lesson.Story, "watch": sc.Lesson.Watch, "fix": sc.Lesson.Fix}
	for sem, why := range sc.Lesson.Why {
		m["why."+sem.Alias()] = why
	}
	for i := range sc.Expect {
		m["note."+sc.Expect[i].RowKey(sc)] = sc.Expect[i].Note
		m["rate-bound."+sc.Expect[i].RowKey(sc)] = sc.Expect[i].RateBound
	}
	for _, p := range sc.Params {
		m["param."+p.Name] = p.Doc
	}
	m["follows"] = sc.Lesson.Follows
	for _, r := range sc.Lesson.Scaled {
		m["scaled."+r.Name] = r.Why
		m["scaled-name."+r.Name] = r.Name
		m["scaled-real."+r.Name] = r.Real
		m["scaled-here."+r.Name] = r.Here
	}
	return m
}

// placeholder reports whether a translation holds no words at all ("…",
// "...", "-") or is marked as still to be written: CONTRIBUTING's
// template shows the shape of a file, and a copy of it must not pass.
func placeholder(text string) bool {
	if strings.Contains(strings.ToUpper(text), "TODO") || strings.Contains(text, "TBD") {
		return true
	}
	for _, r := range text {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// Within a scenario, the rows that carry a note have distinct row keys, so
// a translation file's [note] table names each row once.
func TestNoteKeysDistinct(t *testing.T) {
	for _, sc := range scenarios.All() {
		seen := map[string]bool{}
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if strings.TrimSpace(e.Note) == "" {
				continue
			}
			k := e.RowKey(sc)
			if seen[k] {
				t.Errorf("%s: two rows with a note share the key %q: translations cannot tell them apart", sc.Name, k)
			}
			seen[k] = true
		}
	}
}

// Every catalog scenario's lesson (summary, story, watch, fix, why per
// semantics, each expectation row's note, each parameter's doc) has its
// Romanian and Russian text, and no translation file
// has an id its scenario's YAML lacks or names a scenario the catalog lacks.
func TestLessonsTranslated(t *testing.T) {
	m := loaded()
	all := scenarios.All()
	for _, l := range Translated() {
		for _, sc := range all {
			file := scenarios.TranslationsDir + "/" + sc.Name + "." + string(l) + ".toml"
			msgs, ok := m.lessonMsgs[l][sc.Name]
			if !ok {
				t.Errorf("%s is missing", file)
				continue
			}
			missing, extra := diffIDs(lessonSource(sc), messageIDs(msgs))
			if len(missing) > 0 {
				t.Errorf("%s lacks %s", file, strings.Join(missing, ", "))
			}
			if len(extra) > 0 {
				t.Errorf("%s has ids the scenario's YAML lacks: %s", file, strings.Join(extra, ", "))
			}
			english := lessonEnglish(sc)
			for _, msg := range msgs {
				switch text := strings.TrimSpace(msg.Other); {
				case text == "":
					t.Errorf("%s: %s is empty", file, msg.ID)
				case placeholder(text):
					t.Errorf("%s: %s is a placeholder (%q), not a translation", file, msg.ID, text)
				case len(strings.Fields(text)) > 3 && text == strings.TrimSpace(english[msg.ID]):
					t.Errorf("%s: %s is the English text, untranslated", file, msg.ID)
				}
			}
		}
		for name := range m.lessonMsgs[l] {
			if _, err := scenarios.Lookup(name); err != nil {
				t.Errorf("%s/%s.%s.toml translates a scenario the catalog lacks", scenarios.TranslationsDir, name, l)
			}
		}
	}
}
