package lang

import (
	"github.com/oncesim/once/scenarios"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/oncesim/once/sim"
)

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}

func messageIDs(msgs []*i18n.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.ID)
	}
	return sortedCopy(out)
}

// diffIDs says which of want got lacks and which it has beyond want.
func diffIDs(want, got []string) (missing, extra []string) {
	for _, id := range want {
		if !slices.Contains(got, id) {
			missing = append(missing, id)
		}
	}
	for _, id := range got {
		if !slices.Contains(want, id) {
			extra = append(extra, id)
		}
	}
	return missing, extra
}

// Every UI message has its Romanian and Russian translation, with every
// plural form the language needs, and no translation names an id English
// lacks.
func TestUIMessagesTranslated(t *testing.T) {
	m := loaded()
	en := m.uiMsgs[English]
	if len(en) == 0 {
		t.Fatal("no English UI messages")
	}
	forms := map[Lang][]string{Romanian: {"one", "few", "other"}, Russian: {"one", "few", "many", "other"}}
	for _, l := range Translated() {
		missing, extra := diffIDs(messageIDs(en), messageIDs(m.uiMsgs[l]))
		if len(missing) > 0 {
			t.Errorf("locales/*.%s.toml lacks %s", l, strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			t.Errorf("locales/*.%s.toml has ids English lacks: %s", l, strings.Join(extra, ", "))
		}
		for _, msg := range m.uiMsgs[l] {
			if strings.TrimSpace(msg.Other) == "" {
				t.Errorf("locales/*.%s.toml: %s is empty", l, msg.ID)
			}
			i := slices.IndexFunc(en, func(e *i18n.Message) bool { return e.ID == msg.ID })
			if i < 0 || en[i].One == "" {
				continue // not a count
			}
			have := map[string]string{"one": msg.One, "few": msg.Few, "many": msg.Many, "other": msg.Other}
			for _, f := range forms[l] {
				if have[f] == "" {
					t.Errorf("locales/*.%s.toml: count %s lacks its %q form", l, msg.ID, f)
				}
			}
		}
	}
}

// idUse finds the UI message ids the code names literally.
var idUse = regexp.MustCompile(`lang\.(?:T|Tf|N)\("([^"]+)"`)

// Every id the code looks up exists in English (a typo would print the id),
// and every value word the reports translate (verdicts, statuses, ends,
// fault counts) has its message.
func TestUsedIDsExist(t *testing.T) {
	en := messageIDs(loaded().uiMsgs[English])
	var used []string
	for _, dir := range []string{"..", "../../cmd/once", "../../tui", "../svg"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range idUse.FindAllStringSubmatch(string(data), -1) {
				used = append(used, m[1])
			}
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d message ids in the code: is the pattern stale?", len(used))
	}
	words := []string{"fault.cut", "fault.to-down"}
	for _, v := range []sim.Verdict{sim.Lost, sim.ExactlyOnce, sim.Duplicated} {
		words = append(words, "verdict."+v.String())
	}
	for _, s := range []sim.Status{sim.Held, sim.Violated, sim.Unknown} {
		words = append(words, "verdict."+s.String())
	}
	for _, e := range []sim.End{sim.Running, sim.Quiescent, sim.EventBudget, sim.TimeBudget} {
		words = append(words, "end."+e.String())
	}
	for _, k := range sim.FaultChoiceKinds() {
		words = append(words, "fault."+k.Past())
	}
	for _, id := range append(used, words...) {
		if !slices.Contains(en, id) {
			t.Errorf("message %q is used but locales/*.en.toml lacks it", id)
		}
	}
}

// Every outcome phrase a report can print — each catalog scenario's
// observe.outcome words and the generic ones — has its message, so the
// summary table never mixes English into a Romanian or Russian run.
func TestOutcomeWordsExist(t *testing.T) {
	en := messageIDs(loaded().uiMsgs[English])
	phrases := []string{"no effect", "exactly one effect", "more than one effect", "or more", "none"}
	for _, sc := range scenarios.All() {
		phrases = append(phrases, sc.Outcome.None, sc.Outcome.Once, sc.Outcome.Many)
	}
	for _, p := range phrases {
		if p != "" && !slices.Contains(en, "outcome."+p) {
			t.Errorf("outcome phrase %q lacks outcome.%q in locales/*.en.toml (and ro, ru)", p, p)
		}
	}
}
