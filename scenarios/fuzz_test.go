package scenarios_test

// Fuzz tests of the two hand-written input formats. Without -fuzz they run
// their seeds and the corpus in testdata/fuzz as ordinary tests; with
//
//	make fuzz FUZZTIME=60s   (every fuzz test of the repository, in turn)
//	go test ./scenarios/ -run '^$' -fuzz '^FuzzLoad$' -fuzztime 60s
//	go test ./scenarios/ -run '^$' -fuzz '^FuzzParsePlan$' -fuzztime 60s
//
// they search for inputs that break the parsers' contracts; any such input
// fails, and go test saves it under testdata/fuzz.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestMakeFuzzRunsEveryFuzzer: `make fuzz` ran FuzzParsePlan only. Its
// recipe must list the fuzz tests with go test -list, or name every one
// in the repository.
func TestMakeFuzzRunsEveryFuzzer(t *testing.T) {
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(makefile), "\nfuzz:")
	if !ok {
		t.Fatal("the Makefile has no fuzz target")
	}
	if end := strings.Index(recipe, "\n\n"); end >= 0 {
		recipe = recipe[:end]
	}
	if strings.Contains(recipe, "-list '^Fuzz'") {
		return
	}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			if !strings.Contains(recipe, m[1]) {
				t.Errorf("make fuzz does not run %s (%s)", m[1], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzLoad: whatever the bytes, Load does not panic; an error is a
// *SpecError naming the file, with a message and, when it has a line, a
// column ≥ 1; and a scenario Load accepts runs under every semantics it
// lists without panicking (within a small budget).
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"catalog/*.yaml", filepath.Join(validDir, "*.yaml"), filepath.Join(invalidDir, "*.yaml")} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
			f.Add(append([]byte("\uFEFF"), data...)) // a byte-order mark first
		}
	}
	// What the input limits stop before the parser: nesting, bytes that
	// are not text.
	f.Add([]byte("name: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n"))
	f.Add([]byte("name:\n" + strings.Repeat("- ", 40) + "x\n"))
	f.Add([]byte("name: x\x00\ntopology: \xff\xfe\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.yaml"
		sc, p, err := loadGuarded(name, data)
		if p != nil {
			t.Fatalf("Load panicked: %v\n%s\ninput:\n%s", p, p.stack, data)
		}
		if err != nil {
			var se *scenarios.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error is a %T, not a *SpecError: %v\ninput:\n%s", err, err, data)
			}
			if se.File != name || strings.TrimSpace(se.Msg) == "" {
				t.Fatalf("SpecError without file or message: %+v", se)
			}
			if se.Line < 0 || (se.Line > 0 && se.Col < 1) {
				t.Fatalf("SpecError at line %d col %d: %v", se.Line, se.Col, err)
			}
			return
		}
		for _, sem := range sc.Semantics {
			set := scenarios.Settings{Semantics: sem, Ops: min(sc.Ops, 3), Faults: sc.Faults, MaxEvents: 5_000}
			if p, err := runGuarded(sc, set, 1); p != nil || err != nil {
				t.Fatalf("scenario %q loaded but does not run under %s: err=%v panic=%v\ninput:\n%s", sc.Name, sem.Alias(), err, p, data)
			}
		}
	})
}

func runGuarded(sc *scenarios.Scenario, set scenarios.Settings, seed uint64) (panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	_, err = runs.Outcome(sc, set, sim.NewRandom(seed), nil)
	return nil, err
}

func parsePlanGuarded(name string, data []byte) (p *scenarios.Plan, panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	p, err = scenarios.ParsePlan(name, data)
	return p, nil, err
}

// recordedPlan writes the plan of one random run, for the seed corpus.
func recordedPlan(tb testing.TB, name string, e int, seed uint64) ([]byte, *sim.Topology) {
	sc, err := scenarios.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	set := planSettings(sc, &sc.Expect[e])
	cfg, err := sc.Config(set)
	if err != nil {
		tb.Fatal(err)
	}
	rec := sim.NewRecording(sim.NewRandom(seed))
	if _, err := runs.Outcome(sc, set, rec, nil); err != nil {
		tb.Fatal(err)
	}
	plan := &scenarios.Plan{Scenario: name, Semantics: set.Semantics, Ops: set.Ops, Seed: seed, Jitter: true,
		Faults: set.Faults, Params: set.Params}
	var buf bytes.Buffer
	if err := scenarios.WritePlan(&buf, plan, cfg.Topology, rec.Faults); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), cfg.Topology
}

// planDefect names a plan ParsePlan should have rejected because it cannot
// round-trip, or returns "".
func planDefect(p *scenarios.Plan) string {
	if p.Scenario != "" && p.File != "" {
		return "a plan with both scenario and file lines is accepted (TestParsePlanScenarioAndFile)"
	}
	for _, f := range p.Schedule {
		switch {
		case !f.Kind.AtPoint() && f.Point != "", f.Kind.AtPoint() && f.Peer != "":
			return "a fault field that can never match is accepted (TestParsePlanRejectsFaultsThatCannotMatch)"
		case f.Op > math.MaxInt32 || f.Attempt > math.MaxInt32 || f.Occurrence > math.MaxInt32:
			return "an op, attempt or occurrence beyond 32 bits is accepted (TestParsePlanRejectsFaultsThatCannotMatch)"
		}
	}
	return ""
}

// FuzzParsePlan: whatever the bytes, ParsePlan, Check and Resolve do not panic;
// their errors are *PlanError with line and column ≥ 1; and a plan they
// accept, written again with WritePlan, reads back to the same fields —
// and, when its names resolve against a catalog topology, to the same
// symbolic and resolved faults.
func FuzzParsePlan(f *testing.F) {
	f.Add([]byte(docPlan))
	var topos []*sim.Topology
	for _, sc := range scenarios.All() {
		cfg, err := sc.Config(scenarios.Settings{Semantics: sc.Semantics[0], Ops: 1, Faults: sc.Faults})
		if err != nil {
			f.Fatal(err)
		}
		topos = append(topos, cfg.Topology)
	}
	for _, s := range []struct {
		name      string
		row, seed int
	}{{"double-billing", 1, 3}, {"double-billing", 4, 2}, {"at-least-once-duplicate", 1, 5}, {"at-least-once-duplicate", 3, 1}} {
		data, _ := recordedPlan(f, s.name, s.row, uint64(s.seed))
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"scenario x\n",
		"file scenarios/x.yaml\nsemantics txn\nops 100000\nset a= b==c\n",
		"scenario double-billing\nsemantics amo\nfaults loss=1 ack-loss=0 dup=1e-3 slow=0.5 crash=0x1p-2\n",
		"scenario double-billing\r\nsemantics idem\r\n\tslow from=client to=service msg=pay op=1 attempt=2 occurrence=3\r\n",
		"scenario double-billing\nsemantics alo\ncrash node=service point=after-lock\n",
		"scenario double-billing\nsemantics alo\nduplicate node=gateway to=service msg=charge-result\n",
		"scenario double-billing\nsemantics alo\nloss from=service to=client msg=pay-response op=1 attempt=1 point=after-charge\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.plan"
		p, pan, err := parsePlanGuarded(name, data)
		if pan != nil {
			t.Fatalf("ParsePlan panicked: %v\ninput:\n%s", pan, data)
		}
		if err != nil {
			checkPlanError(t, name, err, data)
			return
		}
		// Resolve against every catalog topology; keep the first that
		// resolves every name.
		var topo *sim.Topology
		var faults []sim.Fault
		for _, tp := range topos {
			fs, err := p.Resolve(name, tp)
			if err != nil {
				checkPlanError(t, name, err, data)
				continue
			}
			if topo == nil {
				topo, faults = tp, fs
			}
		}
		if sc, err := scenarios.Lookup(p.Scenario); err == nil {
			if err := p.Check(name, sc); err != nil {
				checkPlanError(t, name, err, data)
			}
		}
		if defect := planDefect(p); defect != "" {
			t.Fatalf("%s\ninput:\n%q", defect, data)
		}
		w := *p
		resolved := topo != nil
		if !resolved {
			topo, faults = topos[0], nil
		}
		var buf bytes.Buffer
		if err := scenarios.WritePlan(&buf, &w, topo, faults); err != nil {
			t.Fatal(err)
		}
		back, err := scenarios.ParsePlan("again.plan", buf.Bytes())
		if err != nil {
			t.Fatalf("WritePlan's output does not parse: %v\ninput:\n%s\nwritten:\n%s", err, data, buf.Bytes())
		}
		if d := samePlan(&w, back); d != "" {
			t.Fatalf("plan differs after WritePlan and ParsePlan: %s\ninput:\n%s\nwritten:\n%s", d, data, buf.Bytes())
		}
		if !resolved {
			return
		}
		if d := sameSchedule(p.Schedule, back.Schedule); d != "" {
			t.Fatalf("faults differ after WritePlan and ParsePlan: %s\ninput:\n%s\nwritten:\n%s", d, data, buf.Bytes())
		}
		again, err := back.Resolve("again.plan", topo)
		if err != nil {
			t.Fatalf("the written plan does not resolve: %v\nwritten:\n%s", err, buf.Bytes())
		}
		if !slices.Equal(again, faults) {
			t.Fatalf("resolved faults differ: %+v vs %+v\nwritten:\n%s", faults, again, buf.Bytes())
		}
	})
}

func checkPlanError(t *testing.T, name string, err error, data []byte) {
	t.Helper()
	var pe *scenarios.PlanError
	if !errors.As(err, &pe) {
		t.Fatalf("error is a %T, not a *PlanError: %v\ninput:\n%q", err, err, data)
	}
	if pe.File != name || pe.Line < 1 || pe.Col < 1 || strings.TrimSpace(pe.Msg) == "" {
		t.Fatalf("PlanError without a position or message: %q\ninput:\n%q", err, data)
	}
}

// sameSchedule compares the symbolic faults a plan file carries.
func sameSchedule(a, b []scenarios.PlanFault) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d faults vs %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Kind != y.Kind || x.Node != y.Node || x.Peer != y.Peer || x.Msg != y.Msg || x.Point != y.Point ||
			x.Op != y.Op || x.Attempt != y.Attempt || x.Occurrence != y.Occurrence {
			return fmt.Sprintf("fault %d: %+v vs %+v", i+1, x, y)
		}
	}
	return ""
}
