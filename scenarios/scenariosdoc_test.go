package scenarios

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docSection is one scenario's section of docs/scenarios.md.
type docSection struct {
	name   string
	fields map[string]string // "Failure", "Fix", "Switches", "Invariants", "Simplified" → the line's text
}

var (
	docHeading = regexp.MustCompile("^## `([^`]+)`\\s*$")
	docField   = regexp.MustCompile(`^- \*\*([A-Za-z]+):\*\* ?(.*)$`)
	docCode    = regexp.MustCompile("`([^`]+)`")
	readmeRow  = regexp.MustCompile("^\\| [0-9]+[a-z]? \\| `([a-z0-9-]+)` \\|")
)

// parseScenariosDoc reads the sections of docs/scenarios.md in order.
func parseScenariosDoc(text string) []docSection {
	var out []docSection
	for _, line := range strings.Split(text, "\n") {
		if m := docHeading.FindStringSubmatch(line); m != nil {
			out = append(out, docSection{name: m[1], fields: map[string]string{}})
			continue
		}
		if m := docField.FindStringSubmatch(line); m != nil && len(out) > 0 {
			out[len(out)-1].fields[m[1]] = m[2]
		}
	}
	return out
}

// codeItems returns the backquoted items of a field ("none" is no item).
func codeItems(field string) []string {
	var out []string
	for _, m := range docCode.FindAllStringSubmatch(field, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// declaredSwitches returns a scenario's vacuity declarations as the doc
// writes them: each row's unprotected switch, and "inherent".
func declaredSwitches(sc *Scenario) []string {
	var out []string
	for i := range sc.Expect {
		e := &sc.Expect[i]
		switch {
		case e.Unprotected != nil:
			out = append(out, e.Unprotected.String())
		case e.Inherent != "":
			out = append(out, "inherent")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// declaredInvariants returns the invariants a scenario's file checks.
func declaredInvariants(sc *Scenario) []string {
	var out []string
	for _, v := range sc.spec.Invariants {
		out = append(out, v.Text)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestScenariosDoc: docs/scenarios.md has one section per catalog
// scenario, in the README's lesson order, each saying the failure, the
// fix and what is simplified; its Switches and Invariants lines name
// exactly the vacuity declarations and invariants of the scenario's file,
// so the doc cannot name a switch or an invariant that does not exist, nor
// miss one that does. The README links it.
func TestScenariosDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/scenarios.md)") {
		t.Error("README.md does not link docs/scenarios.md")
	}
	var order []string
	for _, line := range strings.Split(string(readme), "\n") {
		if m := readmeRow.FindStringSubmatch(line); m != nil {
			order = append(order, m[1])
		}
	}
	sections := parseScenariosDoc(string(doc))
	var names []string
	for _, s := range sections {
		names = append(names, s.name)
	}
	if !slices.Equal(names, order) {
		t.Errorf("docs/scenarios.md sections %v\nwant the README's lesson order %v", names, order)
	}
	catalog := map[string]*Scenario{}
	for _, sc := range All() {
		catalog[sc.Name] = sc
	}
	seen := map[string]bool{}
	for _, s := range sections {
		sc, ok := catalog[s.name]
		if !ok {
			t.Errorf("docs/scenarios.md: section %q names no catalog scenario", s.name)
			continue
		}
		if seen[s.name] {
			t.Errorf("docs/scenarios.md: two sections for %q", s.name)
		}
		seen[s.name] = true
		for _, f := range []string{"Failure", "Fix", "Switches", "Invariants", "Simplified"} {
			if strings.TrimSpace(s.fields[f]) == "" {
				t.Errorf("docs/scenarios.md: %s has no %s line", s.name, f)
			}
		}
		if got, want := codeItems(s.fields["Switches"]), declaredSwitches(sc); !slices.Equal(got, want) {
			t.Errorf("docs/scenarios.md: %s switches %q, its YAML declares %q", s.name, got, want)
		}
		if got, want := codeItems(s.fields["Invariants"]), declaredInvariants(sc); !slices.Equal(got, want) {
			t.Errorf("docs/scenarios.md: %s invariants %q, its YAML checks %q", s.name, got, want)
		}
		// One source of truth: the YAML's lesson.source, which once
		// explain cites, is the section's Source line word for word.
		if got, want := strings.TrimSpace(s.fields["Source"]), sc.Lesson.Source; got != want {
			t.Errorf("docs/scenarios.md: %s **Source:** line differs from its YAML's lesson.source:\n doc:  %q\n yaml: %q", s.name, got, want)
		}
	}
	for name := range catalog {
		if !seen[name] {
			t.Errorf("docs/scenarios.md: no section for catalog scenario %q", name)
		}
	}
}
