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

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
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
// in backquotes) and from the code's identifiers: scenario, topology, node,
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
		add(sc.Topology) // a `topology:` value, printed as the file spells it (custom for a new family)
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
	for _, st := range c.AllTracks().Steps { // the course's ids: steps and runs, both tracks
		add(st.ID)
		for _, r := range st.Runs {
			add(r.ID)
		}
		for _, q := range st.Bank { // the bank's question ids, which grade and the class's dashboard print
			add(q.ID)
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
	var tp sim.Topology // a fault plan line's fields: from=client to=service op=2 attempt=1
	field := regexp.MustCompile(`([a-z]+)=`)
	for _, k := range sim.FaultChoiceKinds() {
		for _, m := range field.FindAllStringSubmatch(tp.FaultLine(sim.Fault{Kind: k, Msg: 1}), -1) {
			add(m[1])
		}
	}
	// The names the catalog's English texts write as names, not as
	// English words: API identifiers in camelCase (commitSync), SQL
	// keywords and acronyms in capitals (ON CONFLICT, UUID), products and
	// people capitalized in mid-sentence (Postgres, Kleppmann), and
	// configuration keys (isolation.level, acks=all).
	camel := regexp.MustCompile(`\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b`)
	caps := regexp.MustCompile(`\b[A-Z][A-Z]+\b`)
	midName := regexp.MustCompile(`[a-z,;(]+ ([A-Z][a-z]+)\b`)
	config := regexp.MustCompile(`\b[a-z]+(?:\.[a-z]+)+\b|\b[a-z]+=`)
	files, _ := filepath.Glob("../../scenarios/catalog/*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, re := range []*regexp.Regexp{camel, caps, config} {
			for _, m := range re.FindAllString(text, -1) {
				add(m)
			}
		}
		for _, m := range midName.FindAllStringSubmatch(text, -1) {
			add(m[1])
		}
	}
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

// scanArgs are the commands whose Romanian and Russian output is scanned:
// run (its summary and its trace), explain and a small explore of every
// catalog scenario; explore's proof, counterexample, cut search and its
// "not known to be minimal" line on double-billing; the whole catalog's
// matrix as text and Markdown on few seeds (so that some expectations fail
// and their lines show), one cut by a budget (unknown lines), and the
// common input mistakes (their error lines); the pages `once class`
// serves (class-pages: see classPages) and its refusal off loopback.
func scanArgs() [][]string {
	var out [][]string
	for _, sc := range scenarios.All() {
		out = append(out,
			[]string{"run", sc.Name},
			[]string{"run", sc.Name, "--format", "trace", "--ops", "2"},
			[]string{"explain", sc.Name},
			[]string{"explore", sc.Name, "--ops", "1", "--max-faults", "1", "--timing=false"},
		)
	}
	out = append(out, errorCases...) // the error lines
	return append(out,
		[]string{"run", "two-generals", "--seed", "4"},
		[]string{"run", "double-billing", "--format", "md"},
		[]string{"run", "concurrent-same-key", "--format", "md"},
		[]string{"explore", "double-billing", "--semantics", "idem", "--timing=false"},
		[]string{"explore", "double-billing", "--semantics", "alo", "--timing=false"},
		[]string{"explore", "double-billing", "--semantics", "idem", "--set", "store=memory", "--faults", "crash,ack-loss", "--max-states", "40", "--timing=false"},
		[]string{"explore", "double-billing", "--semantics", "idem", "--set", "store=memory", "--faults", "crash,ack-loss", "--max-states", "300", "--timing=false"},
		[]string{"matrix", "--seeds", "2"},
		[]string{"matrix", "--seeds", "2", "--format", "md"},
		[]string{"matrix", "double-billing", "--seeds", "2", "--max-events", "20"},
		[]string{"lesson", "--plain", "--student", "ada"},
		[]string{"lesson", "--plain", "--track", "advanced"},
		[]string{"sweep", "expired-dedup-ttl", "--vary", "ttl=15s:45s:15s", "--seeds", "3"},
		[]string{"sweep", "double-billing", "--semantics", "alo", "--vary", "ack-loss=0:0.4:0.2", "--seeds", "3"},
		[]string{"replay", "PLAN", "--semantics", "all"},
		[]string{"replay", "PLAN", "--format", "trace"},
		[]string{"tui-screens"},
		[]string{"pack"},
		[]string{"class-pages"},
		[]string{"class", "--listen", "0.0.0.0:0"},
	)
}

// The Romanian and Russian outputs a student reads — run, its trace,
// explain, explore, matrix, sweep, replay, the TUI's screens (its golden
// screens, which tui's test keeps equal to what it draws), both tracks of
// the lesson and the lesson pack's pages (both
// editions, Markdown and HTML, matrix excerpts included) — hold no
// English word outside the glossary's kept terms and the code's
// identifiers.
func TestNoEnglishLeftInTranslations(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Cleanup(func() { lang.Set(lang.English) })
	defer func(n int) { lessonMatrixSeeds = n }(lessonMatrixSeeds)
	lessonMatrixSeeds = 3 // the pack's matrix excerpts: their words, not their rates
	kept := keptWords(t)
	english := englishOnly(t, kept)
	fileName := regexp.MustCompile(`[\w-]+\.(?:plan|json|yaml|svg|md|html|csv)\b`)
	cutLabel := regexp.MustCompile(`\S+… \[\d+\]`)
	mermaidSyntax := regexp.MustCompile(`(?m)^[ \t]*(?:sequenceDiagram|end)[ \t]*$|^[ \t]*(?:participant \S+(?: as)?|rect rgb\([^)]*\))|^[ \t]*Note (?:over|right of|left of) [^:]+:|^[ \t]*[\w-]+?(?:-{1,2}>>|-{1,2}x|-{1,2}\))[\w-]+:`)
	student := regexp.MustCompile(`\bada\b`)
	command := regexp.MustCompile(`\bonce [a-z]+[^\n]*`)
	code := regexp.MustCompile("`[^`\n]+(?:\n[^`\n]+)?`|<code>[^<]*</code>") // may wrap once
	gloss := regexp.MustCompile(`(\p{Cyrillic}+) \([A-Za-z][A-Za-z ,-]*\)`)
	htmlTag := regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>|<[^>]*>|&[a-z#0-9]+;`)
	for _, l := range []string{"ro", "ru"} {
		for _, args := range scanArgs() {
			args := append(slices.Clone(args), "--lang", l)
			var out string
			if args[0] == "class-pages" { // the pages `once class` serves, fetched from it
				out = htmlTag.ReplaceAllString(code.ReplaceAllString(classPages(t, lang.Lang(l)), " "), " ")
			} else {
				if args[0] == "replay" { // a plan saved by run, replayed
					plan := filepath.Join(t.TempDir(), "cex.plan")
					if exit, _, stderr := executeWithInput([]string{"run", "double-billing", "--semantics", "alo", "--seed", "3", "--save", plan}, ""); exit != 0 {
						t.Fatalf("run --save: %s", stderr)
					}
					args[1] = plan
				}
				_, stdout, stderr := executeWithInput(args, strings.Repeat("a\n", 200))
				out = stdout + stderr
			}
			if args[0] == "tui-screens" { // the TUI's screens, as its golden test renders them
				files, _ := filepath.Glob("../../tui/testdata/screen-*." + l + ".txt")
				if len(files) == 0 {
					t.Fatalf("no %s TUI screens under tui/testdata", l)
				}
				out = ""
				for _, f := range files {
					data, _ := os.ReadFile(f)
					out += string(data)
				}
			}
			if args[0] == "pack" { // the lesson pack's pages, both editions
				dir := filepath.Join(t.TempDir(), "pack")
				exit, _, stderr := executeWithInput([]string{"lesson", "--out", dir, "--class-key", testClassKey, "--student", "ada", "--lang", l}, "")
				if exit != 0 {
					t.Fatalf("lesson --out: %s", stderr)
				}
				var pages []string
				for _, g := range []string{"*.md", "*.html", "*/*.md", "*/*.html"} {
					p, _ := filepath.Glob(filepath.Join(dir, g))
					pages = append(pages, p...)
				}
				out = ""
				for _, p := range pages {
					data, _ := os.ReadFile(p)
					page := string(data)
					if strings.HasSuffix(p, ".html") {
						page = code.ReplaceAllString(page, " ")
						page = htmlTag.ReplaceAllString(page, " ")
					}
					out += page
				}
				out = regexp.MustCompile(`\]\([^)]*\)`).ReplaceAllString(out, "]") // link targets: file names
				for _, p := range pages {                                          // the formats the pack writes: the HTML edition
					kept[strings.TrimPrefix(filepath.Ext(p), ".")] = true
				}
			}
			leaks := map[string]int{}
			given := map[string]bool{} // what the command was given, echoed in its error line: "nosuch"
			for _, w := range asciiWord.FindAllString(strings.Join(args, " "), -1) {
				given[strings.ToLower(w)] = true
			}
			for _, sc := range scenarios.All() { // a source is a citation: titles and quotes stay in their language
				if sc.Lesson.Source != "" {
					out = strings.ReplaceAll(out, sc.Lesson.Source, "")
				}
			}
			out = student.ReplaceAllString(out, "")       // the student's name
			out = fileName.ReplaceAllString(out, "")      // a file a command writes: cex.plan
			out = cutLabel.ReplaceAllString(out, "")      // a matrix row label cut to its column: idem reconcile-ever… [1]
			out = command.ReplaceAllString(out, "")       // a command to type: once explore … --property promise
			out = mermaidSyntax.ReplaceAllString(out, "") // a Mermaid block's syntax; its labels are scanned
			out = code.ReplaceAllString(out, " ")         // code in backquotes: `UPDATE … SET total = ?`
			out = gloss.ReplaceAllString(out, "$1")       // the English term after its translation: надёжное (durable) хранилище

			if n := numberLeaks(out); len(n) > 0 {
				t.Errorf("once %s: numbers in the English form: %s", strings.Join(args, " "), strings.Join(n, " "))
			}
			if l == "ro" {
				for _, w := range anyWord.FindAllString(out, -1) {
					if len(w) > 2 && english[strings.ToLower(w)] && !given[strings.ToLower(w)] {
						leaks[w]++
					}
				}
			} else {
				for _, w := range asciiWord.FindAllString(out, -1) {
					if len(w) > 2 && !kept[strings.ToLower(w)] && !given[strings.ToLower(w)] {
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
