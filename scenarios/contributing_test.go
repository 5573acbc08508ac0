package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/sim"
)

// readmeCount and readmeRowCount find the README's counts of catalog
// scenarios and expectation rows.
var readmeCount = regexp.MustCompile(`The catalog holds ([0-9]+) scenarios`)
var readmeRowCount = regexp.MustCompile("`once matrix` checks them all: ([0-9]+) rows")

// checklist reports a missing step of CONTRIBUTING.md's checklists, naming
// the step as the document numbers it.
type checklist struct {
	t       *testing.T
	contrib string
}

func (c *checklist) missing(step, what string) {
	c.t.Helper()
	if !strings.Contains(c.contrib, "**"+step+"**") {
		c.t.Errorf("CONTRIBUTING.md has no step %s, which this test checks", step)
	}
	c.t.Errorf("CONTRIBUTING.md step %s: %s", step, what)
}

func readRepo(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tomlSection returns the keys of [section] in a TOML file's text (a
// line scan: the locale files keep one key a line).
func tomlSection(text, section string) map[string]bool {
	keys := map[string]bool{}
	in := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = line == "["+section+"]"
			continue
		}
		if k, _, ok := strings.Cut(line, "="); in && ok {
			keys[strings.Trim(strings.TrimSpace(k), `"`)] = true
		}
	}
	return keys
}

// TestContributingChecklist follows CONTRIBUTING.md's two checklists for
// everything the build holds: every catalog scenario has its YAML lesson,
// translations, README row, docs section, canonical trace and pinned
// digests (R2–R7); every fault kind has its table entries, its
// trace event and its word in every language, and a flag in docs/commands.md (F1–F4).
// A missing piece fails with the step that says how to add it.
func TestContributingChecklist(t *testing.T) {
	c := &checklist{t: t, contrib: readRepo(t, "CONTRIBUTING.md")}
	readme, commands := readRepo(t, "README.md"), readRepo(t, "docs/commands.md")
	docs := readRepo(t, filepath.Join("docs", "scenarios.md"))
	digests := readRepo(t, filepath.Join("testdata", "digests.txt"))
	readmeRows := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		if m := readmeRow.FindStringSubmatch(line); m != nil {
			readmeRows[m[1]] = true
		}
	}
	docSections := map[string]bool{}
	for _, s := range parseScenariosDoc(docs) {
		docSections[s.name] = true
	}
	exists := func(path string) bool {
		_, err := os.Stat(filepath.Join("..", path))
		return err == nil
	}
	if m := readmeCount.FindStringSubmatch(readme); m == nil {
		c.missing("R4", `README.md no longer says "The catalog holds N scenarios"`)
	} else if n, _ := strconv.Atoi(m[1]); n != len(All()) {
		c.missing("R4", fmt.Sprintf("README.md says the catalog holds %d scenarios; it holds %d (raise the count and `once matrix`'s row counts above the table)", n, len(All())))
	}
	rows := 0
	for _, sc := range All() {
		rows += len(sc.Expect)
	}
	if m := readmeRowCount.FindStringSubmatch(readme); m == nil {
		c.missing("R4", "README.md no longer says \"`once matrix` checks them all: N rows\"")
	} else if n, _ := strconv.Atoi(m[1]); n != rows {
		c.missing("R4", fmt.Sprintf("README.md says `once matrix` checks %d rows; the catalog has %d (raise the row counts above the table as `once matrix` prints them)", n, rows))
	}
	for _, sc := range All() {
		n := sc.Name
		if !exists(filepath.Join("scenarios", "catalog", n+".yaml")) {
			c.missing("R2", n+": no scenarios/catalog/"+n+".yaml")
		}
		if l := sc.Lesson; strings.TrimSpace(l.Story) == "" || strings.TrimSpace(l.Fix) == "" || len(l.Try) == 0 {
			c.missing("R2", n+": its lesson lacks a story, a fix or commands to try")
		}
		for _, what := range provenanceGaps(sc) {
			c.missing("R2", n+": "+what)
		}
		for _, lang := range []string{"ro", "ru"} {
			if f := filepath.Join("scenarios", "catalog", "i18n", n+"."+lang+".toml"); !exists(f) {
				c.missing("R3", n+": no "+f)
			}
		}
		if !readmeRows[n] {
			c.missing("R4", n+": no row in README.md's scenario table")
		}
		if !docSections[n] {
			c.missing("R5", n+": no section in docs/scenarios.md")
		}
		if f := filepath.Join("testdata", "traces", n+".txt"); !exists(f) {
			c.missing("R6", n+": no canonical trace "+f)
		}
		for _, sem := range sc.Semantics {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(n+" "+sem.Alias()) + ` `).MatchString(digests) {
				c.missing("R7", n+" "+sem.Alias()+": no pinned digest in testdata/digests.txt (make update)")
			}
		}
	}

	words := map[string]map[string]bool{}
	for _, lang := range []string{"en", "ro", "ru"} {
		words[lang] = tomlSection(readRepo(t, filepath.Join("report", "lang", "locales", "core."+lang+".toml")), "fault")
	}
	recorded := map[sim.ChoiceKind]bool{}
	for e := sim.EventKind(1); e < sim.NumEventKinds; e++ {
		if f := e.Spec().Fault; f != 0 {
			recorded[f] = true
		}
		if rc := e.Class(); rc == sim.ClassNone || rc >= sim.NumRenderClasses {
			c.missing("F2", "event kind "+e.String()+": no render class (Class in sim/trace.go's event table), so no view draws it")
		}
	}
	for k := range sim.FaultKinds {
		s := &sim.FaultKinds[k]
		if s.Name == "" || s.JSON == "" || s.Help == "" || s.Choice == 0 || s.Choice.String() == "unknown" {
			c.missing("F1", "fault kind "+s.Name+": its table entry lacks a name, JSON key, help or choice kind")
		}
		if s.Choice.OnLink() == sim.LinkHold && s.Duration == nil && s.Hold <= 0 {
			c.missing("F1", "fault kind "+s.Name+": a hold on a link with neither a DurationSetting nor a Hold holds a message for no time")
		}
		if !strings.Contains(commands, "--"+s.Name) {
			c.missing("F4", "fault kind "+s.Name+": docs/commands.md does not name --"+s.Name)
		}
	}
	for _, k := range sim.FaultChoiceKinds() {
		if k.Past() == "" || k.Past() == "unknown" {
			c.missing("F1", "choice kind "+k.String()+": no past tense in the choice-kind table")
		}
		if !recorded[k] && k.OnLink() != sim.LinkDrop { // a drop is EvDrop with its reason
			c.missing("F2", "choice kind "+k.String()+": no event kind records it (Fault in sim/trace.go's event table)")
		}
		for lang, keys := range words {
			if !keys[k.Past()] {
				c.missing("F3", "choice kind "+k.String()+": no [fault] "+k.Past()+" in report/lang/locales/core."+lang+".toml")
			}
		}
	}
}

// provenanceGaps lists what a catalog scenario's lesson owes its readers
// about the real system and lacks: the one-line source; a scaled row for
// every duration parameter (a 300 ms session timeout is only honest beside
// Kafka's 45 s); and, for a Kafka, Pub/Sub or Redis scenario, the version
// its behaviour follows.
func provenanceGaps(sc *Scenario) []string {
	var gaps []string
	if strings.TrimSpace(sc.Lesson.Source) == "" {
		gaps = append(gaps, "its lesson has no source: (one line citing the document, KIP or source file it follows)")
	}
	labelled := map[string]bool{}
	for _, r := range sc.Lesson.Scaled {
		labelled[r.Param] = true
	}
	for _, p := range sc.Params {
		if p.Kind == ParamDuration && !labelled[p.Name] {
			gaps = append(gaps, fmt.Sprintf("its duration parameter %s has no scaled: row (param: %s, with the real default)", p.Name, p.Name))
		}
	}
	if versioned(sc) && strings.TrimSpace(sc.Lesson.Follows) == "" {
		gaps = append(gaps, "a Kafka, Pub/Sub or Redis scenario without follows: (the version whose behaviour it follows)")
	}
	return gaps
}

// versioned reports whether sc models Kafka, Pub/Sub or Redis, whose
// behaviour changed between versions: a kafka-* or pubsub-* role, or a
// node named after Redis.
func versioned(sc *Scenario) bool {
	for _, n := range sc.spec.Nodes {
		if role := n.Role.Text; strings.HasPrefix(role, "kafka-") || strings.HasPrefix(role, "pubsub-") || strings.Contains(n.Name.Text, "redis") {
			return true
		}
	}
	return false
}

// The provenance check fails where it should: a scenario without a
// source, with an unlabelled duration parameter, or a Kafka one without
// follows, is named.
func TestProvenanceGapsNamed(t *testing.T) {
	sc, err := Lookup("kafka-zombie-fencing")
	if err != nil {
		t.Fatal(err)
	}
	if gaps := provenanceGaps(sc); len(gaps) != 0 {
		t.Fatalf("kafka-zombie-fencing: %v", gaps)
	}
	bare := *sc
	bare.Lesson.Source, bare.Lesson.Follows, bare.Lesson.Scaled = "", "", nil
	gaps := strings.Join(provenanceGaps(&bare), "\n")
	for _, want := range []string{"no source", "duration parameter session", "duration parameter txn-timeout", "without follows"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("a bare kafka-zombie-fencing: gaps %q lack %q", gaps, want)
		}
	}
}
