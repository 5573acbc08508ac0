package scenarios_test

// Tests of the limits every input file goes through before a parser sees
// it (size, text, nesting), and of the loader's and the plan reader's
// checks that the first review found missing: quoted numbers, budgets
// out of range, two keys naming the same semantics, map order, repeated
// plan keys, and plan parameters without a position.

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// mobileCheckout is the text of a valid hand-written scenario, the base
// the tests below break in one place each.
func mobileCheckout(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(validDir, "mobile-checkout.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// replaceOnce replaces old, which must occur in s exactly once.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times in the base scenario, want once", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// wantSpecError loads src and requires a one-line *SpecError at line:col
// (col 0: any column) whose text contains want.
func wantSpecError(t *testing.T, src string, line, col int, want string) {
	t.Helper()
	sc, p, err := loadGuarded("f.yaml", []byte(src))
	if p != nil {
		t.Fatalf("Load panicked: %v", p)
	}
	if err == nil {
		t.Fatalf("Load accepted the file (scenario %q); want an error containing %q", sc.Name, want)
	}
	var se *scenarios.SpecError
	if !errors.As(err, &se) {
		t.Fatalf("error is a %T, not a *SpecError: %v", err, err)
	}
	if se.Line != line || (col > 0 && se.Col != col) || se.Col < 1 || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %q\n  want f.yaml:%d:%d: …%s…", err, line, col, want)
	}
}

// The bracket bomb: 200 KB of nested brackets ran the YAML parser
// out of memory (2.4 GB, then a 307-line stack trace). It is now refused
// by the nesting scan, at the first bracket too deep.
func TestLoadRejectsBracketBomb(t *testing.T) {
	const n = 100_000
	wantSpecError(t, "name: "+strings.Repeat("[", n)+strings.Repeat("]", n)+"\n",
		1, len("name: ")+scenarios.MaxNestingDepth, "nested more than 16 levels deep")
	wantSpecError(t, "name: x\nsummary: "+strings.Repeat("{a: ", n)+strings.Repeat("}", n)+"\n",
		2, len("summary: ")+scenarios.MaxNestingDepth*len("{a: ")-3, "nested more than")
	// Block nesting: "- - - …" on one line, and a staircase of keys.
	wantSpecError(t, "name:\n"+strings.Repeat("- ", n)+"x\n", 2, 2*scenarios.MaxNestingDepth-1, "nested more than")
	var stair strings.Builder
	for i := range 100 {
		stair.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	wantSpecError(t, stair.String(), scenarios.MaxNestingDepth+1, scenarios.MaxNestingDepth+1, "nested more than")
}

// A flat list of one-letter values cost the YAML parser about 800 bytes
// per byte of file (860 MB for 1 MiB); the number of values is limited
// before it runs. A list just under the limit reaches the decoder.
func TestLoadRejectsTooManyValues(t *testing.T) {
	src := replaceOnce(t, mobileCheckout(t), "\nlesson:\n", "\nmetrics: [%s]\nlesson:\n")
	many := strings.TrimSuffix(strings.Repeat("a,", scenarios.MaxScenarioNodes), ",")
	wantSpecError(t, strings.Replace(src, "%s", many, 1), 58, 0, "more than 10000 values, lists and mappings")
	few := strings.TrimSuffix(strings.Repeat("a,", scenarios.MaxScenarioNodes/2), ",")
	wantSpecError(t, strings.Replace(src, "%s", few, 1), 58, 11, `unknown metric "a"`)
}

// A file nested exactly to the limit reaches the YAML decoder (and fails
// there, for another reason); brackets in comments, quoted strings and
// block scalars are text, not nesting.
func TestLoadNestingLimitIsExact(t *testing.T) {
	deep := scenarios.MaxNestingDepth - 1 // the top-level mapping is one level
	_, _, err := loadGuarded("f.yaml", []byte("name: "+strings.Repeat("[", deep)+strings.Repeat("]", deep)+"\n"))
	if err == nil || strings.Contains(err.Error(), "nested more than") {
		t.Fatalf("a file nested %d levels deep: %v; want the decoder's error, not the nesting limit", scenarios.MaxNestingDepth, err)
	}
	wantSpecError(t, "name: "+strings.Repeat("[", deep+1)+strings.Repeat("]", deep+1)+"\n", 1, 6+deep+1, "nested more than")

	bracketsInText := strings.Repeat("[{", 40)
	src := mobileCheckout(t)
	src = replaceOnce(t, src, `summary: "double billing`, `summary: "`+bracketsInText+` double billing`)
	src = replaceOnce(t, src, "  story: |\n", "  story: |\n    "+bracketsInText+"\n      "+bracketsInText+"\n")
	src = replaceOnce(t, src, "\nnodes:\n", "\n# "+bracketsInText+"\nnodes: # "+bracketsInText+"\n")
	src = replaceOnce(t, src, `note: "a fresh key per retry defeats the server"`, `note: 'it''s `+bracketsInText+` a fresh key'`)
	if _, err := scenarios.Load("f.yaml", []byte(src)); err != nil {
		t.Fatalf("brackets in text count as nesting: %v", err)
	}
}

// Random bytes (the issue used /dev/urandom) are refused as not text, at
// the first offending byte, with a line and column.
func TestLoadRejectsRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20 {
		data := make([]byte, 64<<10)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		_, p, err := loadGuarded("r.bin", data)
		if p != nil {
			t.Fatalf("Load panicked: %v", p)
		}
		var se *scenarios.SpecError
		if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
			t.Fatalf("random bytes: %v; want a *SpecError with a position", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "is not UTF-8") && !strings.Contains(msg, "NUL byte") && !strings.Contains(msg, "control character") {
			t.Fatalf("random bytes: %q; want a message saying the file is not text", msg)
		}
	}
}

// Each defect of the raw text is reported where it is: line and column
// (columns count characters).
func TestLoadRejectsNonText(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		want      string
	}{
		{"NUL", "name: x\ntopology: ht\x00tp\n", 2, 13, "a NUL byte"},
		{"invalid UTF-8", "name: x\nsummary: \"é \xff\"\n", 2, 13, "byte 0xff is not UTF-8"},
		{"control character", "name: x\x07\n", 1, 8, "control character U+0007"},
		{"byte-order mark inside", "name: x\n\uFEFFtopology: http\n", 2, 1, "byte-order mark (U+FEFF)"},
		{"too large", "name: x\n" + strings.Repeat("# padding\n", scenarios.MaxScenarioFileBytes/10), scenarios.MaxScenarioFileBytes/10 + 1, 9,
			"larger than the limit of 1 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantSpecError(t, tc.src, tc.line, tc.col, tc.want) })
	}
}

// A UTF-8 byte-order mark at the start (some editors write one) was read
// as part of the first key: `unknown field "\ufeffname"`, an invisible
// difference. It is skipped, in scenario files and plan files alike.
func TestByteOrderMarkAccepted(t *testing.T) {
	src := mobileCheckout(t)
	sc, err := scenarios.Load("bom.yaml", []byte("\uFEFF"+src))
	if err != nil {
		t.Fatalf("a scenario file starting with a byte-order mark: %v", err)
	}
	if sc.Name != "mobile-checkout" {
		t.Errorf("name %q", sc.Name)
	}
	p, err := scenarios.ParsePlan("bom.plan", []byte("\uFEFFscenario double-billing\nsemantics alo\n"))
	if err != nil {
		t.Fatalf("a plan starting with a byte-order mark: %v", err)
	}
	if p.Scenario != "double-billing" {
		t.Errorf("scenario %q", p.Scenario)
	}
}

// Anchors and aliases are refused: an alias expands on decoding, so a
// small file could decode into a huge one.
func TestLoadRejectsAnchorsAndAliases(t *testing.T) {
	src := mobileCheckout(t)
	wantSpecError(t, replaceOnce(t, src, "ops: 6\n", "ops: &n 6\n"), 11, 6, "YAML anchor &n")
	wantSpecError(t, replaceOnce(t, src, "\nlesson:\n", "\nbudget: {events: *n}\nlesson:\n"), 58, 18, "YAML alias *n")
}

// ops: "3" was accepted: a quoted number is text, and numeric and boolean
// fields now say so, with the field's name and position.
func TestLoadRejectsQuotedNumbers(t *testing.T) {
	src := mobileCheckout(t)
	for _, tc := range []struct {
		old, new  string
		line, col int
		field     string
	}{
		{"ops: 6\n", "ops: \"6\"\n", 11, 6, `ops: "6" is quoted text, not a number`},
		{"faults: {loss: 0.05, ack-loss: 0.1}", "faults: {loss: '0.05', ack-loss: 0.1}", 22, 16, `faults.loss: "0.05" is quoted text`},
		{"explore: {ops: 2, max-faults: 2,", "explore: {ops: \"2\", max-faults: 2,", 56, 16, `explore.ops: "2" is quoted text`},
		{"explore: {ops: 2, max-faults: 2,", "explore: {ops: 2, max-faults: \"2\",", 56, 31, `explore.max-faults: "2" is quoted text`},
		{`{semantics: amo, show: ["<=1", lost],`, `{semantics: amo, ops: "2", show: ["<=1", lost],`, 47, 27, `expect.ops: "2" is quoted text`},
		{`{semantics: amo, show: ["<=1", lost],`, `{semantics: amo, explore: "1", show: ["<=1", lost],`, 47, 31, `expect.explore: "1" is quoted text`},
		{"    crash: true\n", "    crash: \"true\"\n", 31, 12, `crash: "true" is quoted text, not true or false`},
		{"delay: 15ms, both: true}", "delay: 15ms, both: 'true'}", 42, 72, `both: "true" is quoted text, not true or false`},
		{"\nlesson:\n", "\nbudget: {events: \"5000\"}\nlesson:\n", 58, 18, `budget.events: "5000" is quoted text`},
		{"params:\n", "params:\n  - {name: n, type: int, default: 1, min: \"0\", max: 5}\n", 14, 43, `parameter n: "0" is quoted text`},
	} {
		t.Run(tc.field, func(t *testing.T) {
			wantSpecError(t, replaceOnce(t, src, tc.old, tc.new), tc.line, tc.col, tc.field)
		})
	}
	// The same values unquoted load.
	if _, err := scenarios.Load("f.yaml", []byte(replaceOnce(t, src, "\nlesson:\n", "\nbudget: {events: 5000}\nlesson:\n"))); err != nil {
		t.Fatal(err)
	}
}

// A budget out of range passed validate and failed run, without a
// position ("sim: event budget 2000000000 outside …"); a time budget of 0
// silently meant the default. Both are refused at load, where they are.
func TestLoadRejectsBudgetsOutOfRange(t *testing.T) {
	src := mobileCheckout(t)
	for _, tc := range []struct {
		budget    string
		line, col int
		want      string
	}{
		{"{events: 2000000000}", 58, 18, `budget.events: "2000000000" is not an integer in [1, 1000000000]`},
		{"{events: 0}", 58, 18, `budget.events: "0" is not an integer`},
		{"{time: 0}", 58, 16, `budget.time: "0" is not a positive duration`},
		{"{time: 0ms}", 58, 16, `budget.time: "0ms" is not a positive duration`},
	} {
		t.Run(tc.budget, func(t *testing.T) {
			wantSpecError(t, replaceOnce(t, src, "\nlesson:\n", "\nbudget: "+tc.budget+"\nlesson:\n"), tc.line, tc.col, tc.want)
		})
	}
}

// Three unknown $param references gave a different error from run to run
// (Go map order): the first in the file is reported, every time.
func TestLoadReportsFirstUnknownParameter(t *testing.T) {
	src := replaceOnce(t, mobileCheckout(t), "with: {service: payments, interval: 120ms, timeout: $timeout, key: $key}",
		"with: {service: $svc, interval: $every, timeout: $wait, key: $key}")
	for range 20 {
		wantSpecError(t, src, 27, 21, "node app: option service refers to unknown parameter $svc")
	}
}

// lesson.why with both amo: and at-most-once: made explain print either
// text: two keys naming the same semantics are refused, at the second.
func TestLoadRejectsSameSemanticsTwiceInWhy(t *testing.T) {
	src := mobileCheckout(t)
	src = replaceOnce(t, src, "  why:\n    amo: |", "  why:\n    at-most-once: \"first\"\n    amo: |")
	for range 10 {
		wantSpecError(t, src, 70, 10, "lesson.why: at-most-once and amo name the same semantics (at-most-once)")
	}
}

// A plan line with a repeated key (`loss from=a from=b …`) kept the last
// value; the same holds for fault probabilities and parameters. Each is
// refused at the repeated key.
func TestParsePlanRejectsRepeatedKeys(t *testing.T) {
	const head = "scenario double-billing\nsemantics alo\n"
	for _, tc := range []struct{ name, plan, want string }{
		{"fault field twice", head + "loss from=client from=service to=client msg=pay-response\n", "p:3:18: loss: from= given twice"},
		{"from and node", head + "duplicate from=client to=service msg=pay node=service\n", "p:3:42: duplicate: from= and node= both name the same node"},
		{"op twice", head + "slow from=client to=service msg=pay op=1 op=2\n", "p:3:42: slow: op= given twice"},
		{"probability twice", head + "faults loss=0.1 dup=0 loss=0.2\n", "p:3:23: faults: loss given twice"},
		{"parameter twice on a line", head + "set store=memory store=durable\n", "p:3:18: set: parameter store given twice (first at line 3)"},
		{"parameter twice across lines", head + "set store=memory\nset key=per-attempt store=durable\n", "p:4:21: set: parameter store given twice (first at line 3)"},
		{"NUL byte", head + "ops 3\x00\n", "p:3:6: a NUL byte"},
		{"not UTF-8", head + "# caf\xe9\n", "p:3:6: byte 0xe9 is not UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := scenarios.ParsePlan("p", []byte(tc.plan))
			if err == nil {
				t.Fatalf("accepted: %+v", p)
			}
			var pe *scenarios.PlanError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q (a %T)\n  want one containing %q", err, err, tc.want)
			}
		})
	}
}

// A plan's set parameters and semantics were checked only when the run
// was configured, and the error had no line or column ("set.plan:
// parameter store: …"). Plan.Check reports them where they are.
func TestPlanCheck(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	const head = "scenario double-billing\nsemantics alo\n"
	for _, tc := range []struct{ name, plan, want string }{
		{"unknown parameter", head + "set store=memory colour=red\n", `p:3:18: set: unknown parameter "colour"`},
		{"bad value", head + "set key=per-attempt\nset store=nowhere\n", `p:4:11: set: parameter store: "nowhere" is not one of durable|memory`},
		{"first in the file", head + "set zz=1\nset aa=2\n", `p:3:5: set: unknown parameter "zz"`},
		{"unsupported semantics", "scenario double-billing\nsemantics transactional\n", "p:2:11: semantics: scenario double-billing does not support txn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := scenarios.ParsePlan("p", []byte(tc.plan))
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check("p", sc)
			var pe *scenarios.PlanError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check: %v\n  want an error containing %q", err, tc.want)
			}
		})
	}
	p, err := scenarios.ParsePlan("p", []byte(head+"set store=memory key=per-attempt\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check("p", sc); err != nil || p.Semantics != sim.AtLeastOnce {
		t.Fatalf("a valid plan: %v", err)
	}
}

// WritePlan refuses a plan that ParsePlan would refuse as too large, and
// writes nothing; a plan just under the limit reads back.
func TestWritePlanSizeLimit(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sim.AtLeastOnce, Ops: 2}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := cfg.Topology.NodeByName("client")
	service, _ := cfg.Topology.NodeByName("service")
	pay, _ := cfg.Topology.MessageByName("pay")
	fault := sim.Fault{Kind: sim.ChoiceLoss, Node: client, Peer: service, Msg: pay, Op: 1, Attempt: 1, Occurrence: 1, Value: 1}
	line := len(scenarios.FaultLine(cfg.Topology, fault)) + 1
	plan := &scenarios.Plan{Scenario: sc.Name, Semantics: set.Semantics, Ops: set.Ops}
	for _, tc := range []struct {
		faults int
		fits   bool
	}{{scenarios.MaxPlanFileBytes/line - 10, true}, {scenarios.MaxPlanFileBytes/line + 1, false}} {
		faults := make([]sim.Fault, tc.faults)
		for i := range faults {
			faults[i] = fault
		}
		var buf bytes.Buffer
		err := scenarios.WritePlan(&buf, plan, cfg.Topology, faults)
		if !tc.fits {
			if err == nil || buf.Len() != 0 || !strings.Contains(err.Error(), "above the limit of 16 MiB") {
				t.Fatalf("%d faults: err %v, %d bytes written; want an error and nothing written", tc.faults, err, buf.Len())
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := scenarios.ParsePlan("big.plan", buf.Bytes())
		if err != nil || len(back.Schedule) != tc.faults {
			t.Fatalf("a plan of %d bytes does not read back: %v", buf.Len(), err)
		}
	}
}
