package lessonview

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// The three ways a student answers the quiz (issue 30, item 1), written
// before the question bank and without looking at it: each reads only
// what that kind of student can read — the slogans; the scenarios'
// `once explain` texts; the output of the commands the step prints —
// never a question's kind of answer, its key or the lesson's code that
// computes it.

// students are the 20 student ids the strategies are tried on.
func students() []string {
	var out []string
	for i := 1; i <= 20; i++ {
		out = append(out, fmt.Sprintf("student-%02d", i))
	}
	return out
}

// A fact is one sentence a student knows: its words, whether it tells
// of something that works (+1), that breaks (-1) or neither (0), and the
// semantics it is about ("" for any).
type fact struct {
	words     map[string]bool
	polarity  int
	semantics string
	scenario  string // "" for any
}

// stopwords carry no meaning for the overlap.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on at by for with and or but not no is are was were be been it its
		this that these those as from into than then so if when which who what how why one any some every each all there
		their they them his her he she we you your our can could may might must will would does do did has have had
		only more most once before after while whose other own same just also very such up out over under about run runs`) {
		stopwords[w] = true
	}
}

// words are the content words of a text, lower case: a setting
// ("store=durable") is kept whole, and a fault's probability
// ("crash=0.2") also as its kind ("crash"); a hyphenated word
// ("ack-loss") whole and in parts; a word of more than five letters is
// cut to its first five (a crude stem: response, responses).
func words(text string) map[string]bool {
	out := map[string]bool{}
	add := func(w string) {
		w = strings.Trim(w, "-=.+")
		if w == "" || stopwords[w] {
			return
		}
		if r := []rune(w); len(r) > 5 && !strings.ContainsAny(w, "-=") {
			w = string(r[:5])
		}
		out[w] = true
	}
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '=' && r != '+' && r != '.'
	}) {
		f = strings.Trim(f, ".")
		add(f)
		if k, v, ok := strings.Cut(f, "="); ok {
			if p, err := strconv.ParseFloat(v, 64); err == nil && slices.Contains(sim.FaultKindNames(), k) {
				if p == 0 {
					add("no-" + k) // without this fault: what happens then is its opposite's
				} else {
					add(k)
				}
			} else {
				add(v) // the value says what the setting does: "before", "durable"
			}
			continue
		}
		if strings.Contains(f, "-") {
			for _, p := range strings.Split(f, "-") {
				add(p)
			}
		}
	}
	return out
}

// breakWords and workWords tell a sentence's polarity.
var (
	breakWords = []string{"twice", "again", "duplicat", "dup", "lost", "lose", "loses", "loss", "violat", "alone", "split",
		"forget", "forgets", "never hears", "bug", "broken", "fails", "impossible", "cannot", "second charge"}
	workWords = []string{"=1", "exactly one", "exactly once", "holds", "survive", "same response", "same transaction", "fix", "fixes", "never charging"}
)

func polarity(text string) int {
	t := strings.ToLower(text)
	for _, w := range breakWords {
		if strings.Contains(t, w) {
			return -1
		}
	}
	for _, w := range workWords {
		if strings.Contains(t, w) {
			return 1
		}
	}
	return 0
}

// sentences splits a paragraph into sentences.
func sentences(text string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(strings.Join(strings.Fields(text), " "), func(r rune) bool { return r == '.' || r == ';' || r == ':' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// slogans are all the slogan student knows.
var slogans = []fact{
	{words: words("at-most-once loses messages: payments lost"), polarity: -1, semantics: "amo"},
	{words: words("at-least-once duplicates: a retry charges twice"), polarity: -1, semantics: "alo"},
	{words: words("idempotency keys fix duplicates"), polarity: 1},
	{words: words("exactly-once delivery is impossible"), polarity: -1},
	{words: words("a fix holds"), polarity: 1},
}

// explained is what the mechanisms student knows of a scenario: its
// `once explain` text — for each semantics why it gives what it gives
// (each sentence a fact), each declared row (the variant, its faults and
// its verdict, the note why), the fix — and nothing of any run.
func explained(sc *scenarios.Scenario) []fact {
	d := runs.Explain(sc)
	var out []fact
	// the defaults: every parameter's default value and the fault kinds
	// the scenario runs with, which a row without "with" is about
	var defaults []string
	for _, part := range report.FaultParts(d.Faults, "", false) {
		if name, p, _ := strings.Cut(part, " "); p != "0" {
			defaults = append(defaults, name)
		}
	}
	for _, p := range d.Params {
		defaults = append(defaults, p.Name+"="+p.Default)
	}
	for _, s := range d.Semantics {
		for _, st := range sentences(s.Why) {
			out = append(out, fact{words: words(st), polarity: polarity(st), semantics: s.Alias, scenario: sc.Name})
		}
		for _, e := range s.Expect {
			variant := e.Variant
			if variant == "" {
				variant = strings.Join(defaults, " ")
			}
			p := polarity(e.Claims)
			if p == 0 {
				p = 1
			}
			out = append(out, fact{words: words(variant + " " + e.Note), polarity: p, semantics: s.Alias, scenario: sc.Name})
		}
	}
	for _, st := range sentences(d.Fix) {
		out = append(out, fact{words: words(st), polarity: 1, scenario: sc.Name})
	}
	return out
}

// semanticsNames are the names a question's text gives its semantics by.
var semanticsNames = []struct{ name, alias string }{
	{"at-least-once+idempotent", "idem"}, {"at-most-once", "amo"}, {"at-least-once", "alo"}, {"transactional", "txn"},
}

// byKnowledge answers as a student who knows only facts: the question
// asks for what works (a fix, what holds) or for what breaks; every
// choice is scored by the words it shares, beyond the question's own,
// with the facts of the question's semantics and scenario — for a fact
// of the polarity asked, against one of the other — and the best choice
// wins (the first of equals: a guess).
func byKnowledge(facts []fact, v *StepView, q *QuestionView) int {
	text := strings.ToLower(q.Text)
	want := -1
	if strings.Contains(text, "fix") || strings.Contains(text, " hold") {
		want = 1
	}
	sem := ""
	for _, s := range semanticsNames {
		if strings.Contains(text, "with "+s.name+",") {
			sem = s.alias
			break
		}
	}
	named := ""
	for _, s := range v.Stories {
		if strings.Contains(text, " "+s.Scenario) && len(s.Scenario) > len(named) {
			named = s.Scenario
		}
	}
	// the words that tell the choices apart: not the question's, not
	// those every choice shares
	asked := words(q.Text)
	shared := map[string]int{}
	for _, c := range q.Choices {
		for w := range words(c) {
			shared[w]++
		}
	}
	for w, n := range shared {
		if n == len(q.Choices) {
			asked[w] = true
		}
	}
	best, bestScore := 0, -1e9
	for k, c := range q.Choices {
		score := 0.0
		cw := words(c)
		for _, f := range facts {
			if f.semantics != "" && sem != "" && f.semantics != sem || f.scenario != "" && named != "" && f.scenario != named {
				continue
			}
			common := 0
			for w := range cw {
				if asked[w] {
					continue
				}
				weight := 1
				if strings.Contains(w, "=") || slices.Contains(sim.FaultKindNames(), w) {
					weight = 3 // the tool's own names: a setting, a fault kind
				}
				if f.words[w] {
					common += weight
				}
				if f.words["no-"+w] {
					common -= weight
				}
			}
			score += float64(common*f.polarity*want) / float64(len(cw)+1)
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// sloganStudent answers from the slogans alone.
func sloganStudent(v *StepView, q *QuestionView) int { return byKnowledge(slogans, v, q) }

// mechanismStudent answers from the step's scenarios' explain texts and
// the slogans, running nothing.
func mechanismStudent(v *StepView, q *QuestionView) int {
	facts := slices.Clone(slogans)
	for _, s := range v.Stories {
		sc, err := scenarios.Lookup(s.Scenario)
		if err != nil {
			panic(err)
		}
		facts = append(facts, explained(sc)...)
	}
	return byKnowledge(facts, v, q)
}

// ranRun is a run command's result as a student reads it: the outcome
// table and the trace.
type ranRun struct {
	outcome *sim.Outcome
	trace   *sim.Trace
	topo    *sim.Topology
}

// runCommand runs a command the lesson printed ("once run SCENARIO
// --seed N --ops N --set k=v…") the way a student would, under one
// semantics.
func runCommand(t *testing.T, command string, sem sim.Semantics) ranRun {
	t.Helper()
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "once" || f[1] != "run" {
		t.Fatalf("not a run command: %q", command)
	}
	sc, err := scenarios.Lookup(f[2])
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}}
	seed := uint64(1)
	for i := 3; i+1 < len(f); i += 2 {
		switch f[i] {
		case "--seed":
			seed, _ = strconv.ParseUint(f[i+1], 10, 64)
		case "--ops":
			set.Ops, _ = strconv.Atoi(f[i+1])
		case "--set":
			k, v, _ := strings.Cut(f[i+1], "=")
			set.Params[k] = v
		case "--semantics":
		case "--format": // a trace of the same run
			if f[i+1] != "trace" {
				t.Fatalf("%q: --format %s", command, f[i+1])
			}
		default:
			t.Fatalf("%q: unknown flag %s", command, f[i])
		}
	}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	trace := &sim.Trace{}
	w, err := sim.NewWorld(cfg, sim.NewRecording(sim.NewRandom(seed)), trace)
	if err != nil {
		t.Fatal(err)
	}
	return ranRun{w.Run(), trace, cfg.Topology}
}

// explored is an explore command's result as a student reads it: HOLDS,
// or the minimal counterexample's faults (plan lines).
type explored struct {
	holds  bool
	faults []string
}

// exploreCommand runs "once explore SCENARIO [--semantics S] [--set k=v…]
// [--faults K] [--max-faults N]" as the command would.
func exploreCommand(t *testing.T, command string) explored {
	t.Helper()
	if e, ok := exploredBefore[command]; ok { // a command run once is known: its output does not change
		return e
	}
	e := runExplore(t, command)
	exploredBefore[command] = e
	return e
}

// exploredBefore are the explore commands the reader has run, by command.
var exploredBefore = map[string]explored{}

func runExplore(t *testing.T, command string) explored {
	t.Helper()
	f := strings.Fields(command)
	if len(f) < 3 || f[0] != "once" || f[1] != "explore" {
		t.Fatalf("not an explore command: %q", command)
	}
	sc, err := scenarios.Lookup(f[2])
	if err != nil {
		t.Fatal(err)
	}
	var b explore.Bounds
	b.Defaults(sc, nil)
	var sets []string
	for i := 3; i+1 < len(f); i += 2 {
		switch f[i] {
		case "--semantics":
			b.Semantics = f[i+1]
		case "--set":
			sets = append(sets, f[i+1])
		case "--faults":
			b.Faults = f[i+1]
		case "--max-faults":
			b.MaxFaults, _ = strconv.Atoi(f[i+1])
		default:
			t.Fatalf("%q: unknown flag %s", command, f[i])
		}
	}
	sem, err := sim.ParseSemantics(b.Semantics)
	if err != nil {
		t.Fatal(err)
	}
	promise, settings, _, err := b.Resolve(sc, sem, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(settings)
	if err != nil {
		t.Fatal(err)
	}
	opt := search.Options{MaxFaults: b.MaxFaults, MaxPreemptions: b.MaxPreemptions, Promise: promise, Workers: 1}
	res, err := search.Explore(cfg, opt)
	if err != nil || !res.Complete {
		t.Fatalf("%s: %v (complete %v)", command, err, res.Complete)
	}
	if res.Holds {
		return explored{holds: true}
	}
	cex, err := explore.MinimalCounterexample(cfg, promise, sc, settings, res, opt, explore.Replay{Faults: b.Faults, Property: b.Property}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return explored{faults: cex.Faults}
}

// reader answers by running the commands the question points at and
// reading their output: it knows what the question asks (a count, an
// operation, a message, who acted, a fault behind a duplicate, a fault
// count, what breaks or fixes it, why the generals split) as a reader of
// its wording does.
func reader(t *testing.T, v *StepView, q *QuestionView) int {
	t.Helper()
	pick := func(key string) int {
		i := slices.Index(q.Keys, key)
		if i < 0 {
			t.Fatalf("step %s: read %q, not among the choices %v", v.ID, key, q.Keys)
		}
		return i
	}
	switch q.Ask {
	case lesson.AskBreaks, lesson.AskFix:
		found := -1
		for k, c := range q.Checks {
			e := exploreCommand(t, c)
			if e.holds == (q.Ask == lesson.AskFix) {
				if found >= 0 {
					t.Fatalf("step %s: %q and %q both read as the answer", v.ID, q.Checks[found], c)
				}
				found = k
			}
		}
		return found
	case lesson.AskFaults:
		e := exploreCommand(t, q.Commands[0])
		n := len(e.faults)
		if n >= 4 {
			return pick("4+")
		}
		return pick(strconv.Itoa(n))
	case lesson.AskCut:
		var last, first, two, crash, enough = true, true, true, false, false
		for i, c := range q.Commands {
			n, _ := strconv.Atoi(c[strings.LastIndex(c, "=")+1:])
			e := exploreCommand(t, c)
			enough = e.holds && i == len(q.Commands)-1
			one := len(e.faults) == 1 && strings.HasPrefix(e.faults[0], "loss ")
			last = last && one && strings.Contains(e.faults[0], fmt.Sprintf(" attempt=%d ", n))
			first = first && one && strings.Contains(e.faults[0], " attempt=1 ")
			two = two && len(e.faults) >= 2
			for _, f := range e.faults {
				crash = crash || strings.HasPrefix(f, "crash ")
			}
		}
		switch {
		case last:
			return pick("cut:last")
		case first:
			return pick("cut:first")
		case enough:
			return pick("cut:enough")
		case two:
			return pick("cut:two-lost")
		case crash:
			return pick("cut:general-down")
		}
		t.Fatalf("step %s: the cuts read as none of the statements", v.ID)
	}
	r := runCommand(t, q.Commands[0], q.Semantics)
	o := r.outcome
	is := func(op sim.OpResult) bool {
		switch q.Class {
		case lesson.ClassNone:
			return op.Effects == 0
		case lesson.ClassOnce:
			return op.Effects == 1
		case lesson.ClassMany:
			return op.Effects >= 2
		}
		return op.Effects == 1 && op.Deliveries > 1
	}
	count := func(n int) string {
		top := slices.IndexFunc(q.Keys, func(k string) bool { return strings.HasSuffix(k, "+") })
		if top >= 0 && n >= top {
			return q.Keys[top]
		}
		return strconv.Itoa(n)
	}
	switch q.Ask {
	case lesson.AskCount:
		n := 0
		for _, op := range o.Ops {
			if is(op) {
				n++
			}
		}
		return pick(count(n))
	case lesson.AskFirst:
		for _, op := range o.Ops {
			if is(op) {
				return pick(op.Op.String())
			}
		}
		return pick("none")
	case lesson.AskMetric:
		for _, m := range o.Metrics {
			if m.Name == metricOf(t, v, q) {
				return pick(count(int(m.Value)))
			}
		}
	case lesson.AskDrop:
		for _, e := range r.trace.Events {
			if e.Kind == sim.EvDrop && e.Reason == sim.DropLoss {
				return pick("#" + strconv.Itoa(int(e.Msg.Attempt)))
			}
		}
		return pick("none")
	case lesson.AskActed:
		var acted []string
		for _, e := range r.trace.Events {
			if e.Kind == sim.EvEffect && !slices.Contains(acted, r.topo.NodeName(e.Node)) {
				acted = append(acted, r.topo.NodeName(e.Node))
			}
		}
		switch len(acted) {
		case 0:
			return pick("neither")
		case 1:
			return pick("alone:" + acted[0])
		}
		return pick("both")
	case lesson.AskCause:
		// the first operation of the class, then the last fault line on
		// it (before its second effect when it is charged twice)
		var op sim.OpID
		for _, res := range o.Ops {
			if is(res) {
				op = res.Op
				break
			}
		}
		// (or, when no fault hit it, the run's last fault before its
		// second effect)
		var line, lastBefore string
		effects := 0
		for i := range r.trace.Events {
			e := &r.trace.Events[i]
			if e.Msg.Op == op && e.Kind == sim.EvEffect {
				if effects++; effects == 2 && q.Class == lesson.ClassMany {
					break
				}
			}
			fault := e.Kind == sim.EvDrop && e.Reason == sim.DropLoss
			switch e.Kind {
			case sim.EvDuplicate, sim.EvSlow, sim.EvCrash, sim.EvPause, sim.EvLate, sim.EvPreempt:
				fault = true
			}
			if !fault {
				continue
			}
			text := strings.TrimSpace(report.TimeWords(e.At)) + "  " + report.DescribeHere(r.topo, e)
			if e.Msg.Op == op {
				line = text
			}
			lastBefore = text
		}
		if line == "" && q.Class == lesson.ClassMany && effects == 2 {
			line = lastBefore
		}
		i := slices.Index(q.Choices, line)
		if i < 0 {
			t.Fatalf("step %s: the trace's line %q is not among the choices %q", v.ID, line, q.Choices)
		}
		return i
	}
	t.Fatalf("step %s: a question of kind %q the reader cannot read", v.ID, q.Ask)
	return -1
}

// metricOf is the metric a metric question asks about, read from its
// wording's message (the reader knows what "answered 422" counts).
func metricOf(t *testing.T, v *StepView, q *QuestionView) string {
	c, _ := lesson.Load()
	for _, cq := range c.AllTracks().Step(v.ID).Bank {
		if cq.ID == q.ID {
			return cq.Name
		}
	}
	t.Fatalf("step %s: no metric question %s", v.ID, q.ID)
	return ""
}

// opID is an operation's name: a question never names one.
var opID = regexp.MustCompile(`\bop-\d`)

// TestThreeStudents: over 20 student ids, answering the core track's
// quiz from slogans scores at most 30 %; from the explain texts without
// running anything at least 60 % and at least twice the slogans; running
// the step's commands and reading their output 100 %. Every question
// offers at least four choices, names no operation and no internal id;
// two students' sheets differ on at least half their questions (a
// different question, or the same one with another right letter).
func TestThreeStudents(t *testing.T) { threeStudents(t, lesson.TrackCore) }

// TestThreeStudentsAdvanced holds the advanced track (`--track advanced`)
// to the same targets, answered by the same three students.
func TestThreeStudentsAdvanced(t *testing.T) { threeStudents(t, lesson.TrackAdvanced) }

func threeStudents(t *testing.T, track string) {
	defer lang.Set(lang.Current())
	lang.Set("en")
	all, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := all.Track(track)
	if err != nil {
		t.Fatal(err)
	}
	var internal []string // the bank's ids, never shown
	for _, s := range all.AllTracks().Steps {
		for _, q := range s.Bank {
			internal = append(internal, q.ID)
		}
	}
	sheets := map[string][]string{}
	questions := map[string][]string{}
	var slogan, mechanism, read, asked, mechAsked, mechRight int
	for _, name := range students() {
		sc, err := c.ForStudent(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sc.Steps {
			v, err := Build(sc, i)
			if err != nil {
				t.Fatal(err)
			}
			for j := range v.Questions {
				q := &v.Questions[j]
				if len(q.Choices) < 4 {
					t.Errorf("step %s question %s: %d choices, want at least 4", v.ID, q.ID, len(q.Choices))
				}
				if opID.MatchString(q.Text) {
					t.Errorf("step %s question %s names an operation: %q", v.ID, q.ID, q.Text)
				}
				for _, id := range internal {
					if regexp.MustCompile(`(^|[^\w-])` + regexp.QuoteMeta(id) + `($|[^\w-])`).MatchString(q.Text) {
						t.Errorf("step %s question %s shows the internal id %q: %q", v.ID, q.ID, id, q.Text)
					}
				}
				asked++
				if sloganStudent(v, q) == q.Answer {
					slogan++
				}
				m := mechanismStudent(v, q) == q.Answer
				if m {
					mechanism++
				}
				if q.Mechanism {
					mechAsked++
					if m {
						mechRight++
					}
				}
				if got := reader(t, v, q); got == q.Answer {
					read++
				} else {
					t.Errorf("%s, step %s question %s: reading the output gives %s, the lesson says %s", name, v.ID, q.ID, q.Keys[got], q.Keys[q.Answer])
				}
				sheets[name] = append(sheets[name], fmt.Sprintf("%s/%s/%c", v.ID, q.ID, 'a'+q.Answer))
				questions[name] = append(questions[name], v.ID+"/"+q.ID)
			}
		}
	}
	rate := func(n int) float64 { return 100 * float64(n) / float64(asked) }
	t.Logf("%s track: %d questions over 20 students (%d mechanism): slogans %d (%.1f %%), mechanisms without running %d (%.1f %%; %d of %d mechanism questions), run and read %d (%.1f %%)",
		track, asked, mechAsked, slogan, rate(slogan), mechanism, rate(mechanism), mechRight, mechAsked, read, rate(read))
	if rate(slogan) > 30 {
		t.Errorf("slogans score %.1f %%, want at most 30 %%", rate(slogan))
	}
	if rate(mechanism) < 60 || mechanism < 2*slogan {
		t.Errorf("mechanisms without running score %.1f %%, want at least 60 %% and twice the slogans' %.1f %%", rate(mechanism), rate(slogan))
	}
	if read != asked {
		t.Errorf("run and read scores %d of %d, want all", read, asked)
	}
	ids := students()
	worst, worstQ, n := len(sheets[ids[0]]), len(sheets[ids[0]]), len(sheets[ids[0]])
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			a, b := sheets[ids[i]], sheets[ids[j]]
			if len(a) != n || len(b) != n {
				t.Fatalf("sheets of %d and %d questions, want %d each", len(a), len(b), n)
			}
			differ, differQ := 0, 0
			for k := range a {
				if a[k] != b[k] {
					differ++
				}
				if questions[ids[i]][k] != questions[ids[j]][k] {
					differQ++
				}
			}
			worst, worstQ = min(worst, differ), min(worstQ, differQ)
			if 2*differ < n {
				t.Errorf("%s and %s: sheets differ on %d of %d questions, want at least half", ids[i], ids[j], differ, n)
			}
		}
	}
	t.Logf("every two sheets differ on at least %d of %d questions (%d by the question asked alone)", worst, n, worstQ)
}
