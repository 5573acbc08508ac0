package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	course "github.com/oncesim/once/scenarios/lesson"
	"github.com/oncesim/once/sim"
)

var (
	asciiWord = regexp.MustCompile(`\b[A-Za-z][A-Za-z']*\b`)
	anyWord   = regexp.MustCompile(`[\p{L}][\p{L}']*`)
	tableRow  = regexp.MustCompile(`(?m)^\|(.*)\|\s*$`)
)

// keptWords is the allow-list of English words a Romanian or Russian
// screen may show, generated — never written by hand — from the course's
// glossary (docs/glossary.md: every Latin-script word of its Romanian and
// Russian columns, the terms the course keeps in English, and every word
// in backquotes) and from the code's identifiers: scenario, node,
// message, timer, sink, crash point, table and state names, parameters
// and their values, metrics, invariants, semantics, fault kinds, the
// message and record fields a trace names, the HTTP paths the stories
// name, the course's step and run ids, every command's flags and the
// values and syntax their help lists (text|json|trace, name=value).
func keptWords(t *testing.T) map[string]bool {
	t.Helper()
	kept := map[string]bool{}
	add := func(s string) {
		for _, w := range asciiWord.FindAllString(s, -1) {
			kept[strings.ToLower(w)] = true
		}
	}
	data, err := os.ReadFile("../../docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tableRow.FindAllStringSubmatch(string(data), -1) {
		cells := strings.Split(row[1], "|")
		for _, c := range cells[1:] { // the Romanian and Russian columns
			add(c)
		}
	}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(string(data), -1) {
		add(m[1])
	}
	endpoint := regexp.MustCompile(`(?:GET|PUT|POST|PATCH|DELETE) /([a-z/-]+)`) // HTTP paths the stories name
	for _, sc := range scenarios.All() {
		add(sc.Name)
		for _, m := range endpoint.FindAllStringSubmatch(sc.Summary+" "+sc.Lesson.Story, -1) {
			add(m[1])
		}
		for _, p := range sc.Params {
			add(p.Name)
			add(p.Describe())
			add(p.Default)
		}
		for _, sem := range sc.Semantics {
			cfg, err := sc.Config(scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}})
			if err != nil {
				continue
			}
			tp := cfg.Topology
			for _, l := range [][]string{tp.Messages, tp.Timers, tp.Sinks, tp.Points} {
				for _, n := range l {
					add(n)
				}
			}
			for i := range tp.Nodes {
				add(tp.NodeName(sim.NodeID(i)))
				for j, tb := range tp.Nodes[i].Tables {
					add(tp.TableName(sim.NodeID(i), sim.TableID(j)))
					for _, st := range tb.States {
						add(st)
					}
				}
			}
			rec := sim.NewRecording(sim.NewRandom(1))
			if w, err := sim.NewWorld(cfg, rec, &sim.Trace{}); err == nil {
				o := w.Run()
				for _, m := range o.Metrics {
					add(m.Name)
				}
				for _, inv := range o.Invariants {
					add(inv.Name)
				}
			}
		}
	}
	for _, v := range []any{sim.Message{}, sim.Record{}} { // the fields a trace line names: status=201 value=8821
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			add(ty.Field(i).Name)
		}
	}
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range c.Steps { // the course's ids: steps and runs
		add(st.ID)
		for _, r := range st.Runs {
			add(r.ID)
		}
	}
	for _, s := range []sim.Semantics{sim.AtMostOnce, sim.AtLeastOnce, sim.Idempotent, sim.Transactional} {
		add(s.String())
		add(s.Alias())
	}
	for _, k := range sim.FaultChoiceKinds() {
		add(k.String())
	}
	alternatives := regexp.MustCompile(`[a-z]+(?:\|[a-z]+)+`) // a flag's values: text|json|trace
	syntax := regexp.MustCompile(`[a-z]+=[a-z]+`)             // a flag's syntax: name=value
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add(c.Name())
		c.Flags().VisitAll(func(f *pflag.Flag) {
			add(f.Name)
			for _, a := range alternatives.FindAllString(f.Usage, -1) {
				add(a)
			}
			for _, a := range syntax.FindAllString(f.Usage, -1) {
				add(a)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(nil, nil))
	return kept
}

// englishOnly are the words of the English texts (the English message
// files and the catalog's English lesson texts) that no Romanian text
// uses: in Romanian output, such a word is English left untranslated.
// Russian needs no such list: any Latin word there is English or kept.
func englishOnly(t *testing.T, kept map[string]bool) map[string]bool {
	t.Helper()
	words := func(globs ...string) map[string]bool {
		out := map[string]bool{}
		for _, g := range globs {
			files, _ := filepath.Glob(g)
			if len(files) == 0 {
				t.Fatalf("no files %s", g)
			}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range anyWord.FindAllString(string(data), -1) {
					out[strings.ToLower(w)] = true
				}
			}
		}
		return out
	}
	en := words("../../report/lang/locales/*.en.toml", "../../scenarios/catalog/*.yaml")
	ro := words("../../report/lang/locales/*.ro.toml", "../../scenarios/catalog/i18n/*.ro.toml")
	out := map[string]bool{}
	for w := range en {
		if !ro[w] && !kept[w] {
			out[w] = true
		}
	}
	return out
}

// The Romanian and Russian outputs a student reads — run, its trace,
// explain, the lesson and the lesson pack's pages (its matrix excerpt
// aside: the matrix's own output) — hold no English word outside the glossary's
// kept terms and the code's identifiers.
func TestNoEnglishLeftInTranslations(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Cleanup(func() { lang.Set(lang.English) })
	kept := keptWords(t)
	english := englishOnly(t, kept)
	for _, l := range []string{"ro", "ru"} {
		for _, args := range [][]string{
			{"run", "double-billing"},
			{"run", "two-generals", "--seed", "4"},
			{"run", "double-billing", "--semantics", "idem", "--format", "trace"},
			{"explain", "double-billing"},
			{"lesson", "--plain", "--steps", "1,3", "--student", "ada"},
			{"pack"},
		} {
			args := append(slices.Clone(args), "--lang", l)
			_, out, _ := executeWithInput(args, "a\nb\nc\nd\na\n")
			if args[0] == "pack" { // the lesson pack's pages, both editions
				dir := filepath.Join(t.TempDir(), "pack")
				if code, _, stderr := executeWithInput([]string{"lesson", "--out", dir, "--steps", "1,3", "--student", "ada", "--lang", l}, ""); code != 0 {
					t.Fatalf("lesson --out: %s", stderr)
				}
				pages, _ := filepath.Glob(filepath.Join(dir, "*", "0*.md"))
				out = ""
				for _, p := range pages {
					data, _ := os.ReadFile(p)
					out += string(data)
				}
				// The matrix excerpt is the matrix command's (see its own
				// translation); the pack's text is what is scanned here.
				out = regexp.MustCompile(`(?s)## [^\n]*once matrix[^\n]*\n.*?\n## `).ReplaceAllString(out, "## ")
				out = regexp.MustCompile(`\]\([^)]*\)`).ReplaceAllString(out, "]") // link targets: file names`
			}
			leaks := map[string]int{}
			out = strings.ReplaceAll(out, "ada", "") // the student's name
			if l == "ro" {
				for _, w := range anyWord.FindAllString(out, -1) {
					if len(w) > 2 && english[strings.ToLower(w)] {
						leaks[w]++
					}
				}
			} else {
				for _, w := range asciiWord.FindAllString(out, -1) {
					if len(w) > 2 && !kept[strings.ToLower(w)] {
						leaks[w]++
					}
				}
			}
			if len(leaks) > 0 {
				var ws []string
				for w, n := range leaks {
					ws = append(ws, w+"×"+strconv.Itoa(n))
				}
				sort.Strings(ws)
				t.Errorf("once %s: English words outside the allow-list: %s", strings.Join(args, " "), strings.Join(ws, " "))
			}
		}
	}
}
