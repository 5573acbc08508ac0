package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// violationID finds the message ids of invariant violations the roles
// build (sim.NewViolation("violation.…", …) and the ids they switch to).
var violationID = regexp.MustCompile(`"(violation\.[a-z0-9.-]+)"`)

// roleViolationIDs is every violation message id named in the roles' code.
func roleViolationIDs(t *testing.T) []string {
	t.Helper()
	var ids []string
	err := filepath.WalkDir("../../scenarios/roles", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range violationID.FindAllStringSubmatch(string(data), -1) {
			ids = append(ids, m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// Every violation message the roles build has its English text (and so,
// by TestUIMessagesTranslated, its Romanian and Russian), and no
// violation message is left over from a sentence the roles no longer say.
func TestViolationMessagesExist(t *testing.T) {
	used := roleViolationIDs(t)
	if len(used) < 15 {
		t.Fatalf("found only %d violation ids in scenarios/roles: is the pattern stale?", len(used))
	}
	var defined []string
	for _, id := range messageIDs(loaded().uiMsgs[English]) {
		if strings.HasPrefix(id, "violation.") {
			defined = append(defined, id)
		}
	}
	missing, extra := diffIDs(used, defined)
	for _, id := range missing {
		t.Errorf("the roles build violation %q but locales/events.en.toml lacks it", id)
	}
	for _, id := range extra {
		t.Errorf("locales/events.en.toml defines %q, which no role builds", id)
	}
}

// Every invariant a catalog scenario checks gives its violation as data
// (a message id and its values), so a report can say it in Romanian or
// Russian instead of the role's English.
func TestCatalogInvariantsGiveData(t *testing.T) {
	seen := map[string]bool{}
	for _, sc := range scenarios.All() {
		for _, sem := range sc.Semantics {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: 1, Faults: sc.Faults})
			if err != nil {
				t.Fatalf("%s: %v", sc.Name, err)
			}
			if cfg.Invariants == nil {
				continue
			}
			for _, inv := range cfg.Invariants() {
				if seen[inv.Name()] {
					continue
				}
				seen[inv.Name()] = true
				if _, ok := inv.(sim.ViolationDetailer); !ok {
					t.Errorf("%s: invariant %s gives its violation only in English (implement sim.ViolationDetailer)", sc.Name, inv.Name())
				}
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("the catalog checks only %d invariants: is the scenario list empty?", len(seen))
	}
}

// The violations the catalog's own rows produce, rendered: the English
// message reproduces the role's sentence byte for byte (so the English
// text in events.en.toml is the role's, with the same values), and the
// Romanian and Russian ones fill every value and differ from English.
func TestViolationsRender(t *testing.T) {
	got := map[string]sim.Violation{}
	for _, sc := range scenarios.All() {
		for _, e := range sc.Expect {
			faults := sc.Faults
			if e.Faults != nil {
				faults = *e.Faults
			}
			ops := e.Ops
			if ops == 0 {
				ops = sc.Ops
			}
			for seed := uint64(1); seed <= 6; seed++ {
				// lang sits below the run service: the test builds its
				// world itself.
				cfg, err := sc.Config(scenarios.Settings{Semantics: e.Semantics, Ops: ops, Faults: faults, Params: e.Params})
				if err != nil {
					t.Fatalf("%s: %v", sc.Name, err)
				}
				w, err := sim.NewWorld(cfg, sim.NewRandom(seed), nil)
				if err != nil {
					t.Fatalf("%s: %v", sc.Name, err)
				}
				o := w.Run()
				for _, inv := range o.Invariants {
					if d := inv.Detail; d.ID != "" {
						if _, dup := got[d.ID]; !dup {
							got[d.ID] = d
						}
					}
					if inv.Violation != inv.Detail.English {
						t.Errorf("%s: %s: Violation %q differs from its Detail's English %q", sc.Name, inv.Name, inv.Violation, inv.Detail.English)
					}
				}
			}
		}
	}
	if len(got) < 5 {
		t.Fatalf("the catalog's rows produced only %d kinds of violation: too few to check", len(got))
	}
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		v := got[id]
		if en := English.Nf(v.ID, v.Count, v.Data()); en != v.English {
			t.Errorf("%s in English renders\n  %q\nbut the role says\n  %q", id, en, v.English)
		}
		for _, l := range Translated() {
			s := l.Violation(v)
			if s == v.English || strings.Contains(s, "<no value>") {
				t.Errorf("%s in %s: %q", id, l, s)
			}
		}
	}
	t.Logf("rendered %d kinds of violation: %s", len(ids), strings.Join(ids, ", "))
}

// A checker's reason that is an invariant's violation reads in the
// reader's language, the invariant's name kept; English is the JSON's
// sentence.
func TestInvariantReason(t *testing.T) {
	v := sim.NewViolation("violation.agreement", 0, "general-a attacks alone", "General", "general-a")
	r := sim.Reason{Kind: sim.ReasonInvariant, Invariant: "agreement", Detail: v.English, Message: v}
	for l, want := range map[Lang]string{
		English:  "agreement: general-a attacks alone",
		Romanian: "agreement: general-a atacă singur",
		Russian:  "agreement: general-a атакует в одиночку",
	} {
		if got := l.Reason(r); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
	// an invariant outside the catalog: its English, in every language
	r.Message = sim.Violation{English: "something broke"}
	r.Detail = "something broke"
	if got := Romanian.Reason(r); got != "agreement: something broke" {
		t.Errorf("ro, no message id: %q", got)
	}
}
