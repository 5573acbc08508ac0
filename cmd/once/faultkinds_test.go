package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// TestEveryFaultKindOnEverySurface walks the table of fault kinds
// (sim.FaultKinds) and checks that each kind reaches every surface that
// names faults: the fault flags of run, sweep and tui; the faults: mapping
// of a scenario file and of an expectation row (which matrix shows); the
// "faults" line of a plan; explore --faults; sweep --vary; the engine (a
// probability of 1 makes the fault happen, and the checker counts it); the
// run report and the TUI's labels. A kind added to the table but missed by
// a surface fails here.
func TestEveryFaultKindOnEverySurface(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	yamlText, err := os.ReadFile("../../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const defaultFaults = "faults: {loss: 0.1, ack-loss: 0.3}\n"
	if !bytes.Contains(yamlText, []byte(defaultFaults)) {
		t.Fatalf("double-billing.yaml no longer has %q: update this test", defaultFaults)
	}
	for k := range sim.FaultKinds {
		kind := sim.FaultKind(k)
		spec := kind.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			settings := []string{spec.Name}
			if spec.Duration != nil {
				settings = append(settings, spec.Duration.Name)
			}
			// Flags, registered once per command from the table.
			for _, cmd := range []string{"run", "sweep", "tui"} {
				c, _, err := newRootCmd(nil, nil).Find([]string{cmd})
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range settings {
					if c.Flags().Lookup(name) == nil {
						t.Errorf("once %s has no --%s", cmd, name)
					}
				}
			}
			// A scenario file's faults: and an expectation row's faults:.
			text := strings.Replace(string(yamlText), defaultFaults, fmt.Sprintf("faults: {%s: 0.25}\n", spec.Name), 1)
			text = strings.Replace(text, "\nexplore:", fmt.Sprintf("\n  - {semantics: idem, faults: {%s: 0.125}, show: [\"≥1\"]}\n\nexplore:", spec.Name), 1)
			sc, err := scenarios.Load("kinds.yaml", []byte(text))
			if err != nil {
				t.Fatalf("a scenario file with faults: {%s: …}: %v", spec.Name, err)
			}
			if sc.Faults.Probability[kind] != 0.25 {
				t.Errorf("faults: {%s: 0.25} read as %v", spec.Name, sc.Faults.Probability[kind])
			}
			if last := sc.Expect[len(sc.Expect)-1]; last.Faults == nil || last.Faults.Probability[kind] != 0.125 {
				t.Errorf("an expectation row's faults: {%s: 0.125} was not read", spec.Name)
			}
			if got := sc.Expect[len(sc.Expect)-1].Changes(sc); !strings.Contains(got, spec.Name+"=0.125") {
				t.Errorf("matrix shows the row's changes as %q, want %s=0.125 in it", got, spec.Name)
			}
			// A plan's faults line.
			plan, err := scenarios.ParsePlan("p", []byte("scenario double-billing\nsemantics idem\nfaults "+spec.Name+"=0.5\n"))
			if err != nil || plan.Faults.Probability[kind] != 0.5 {
				t.Errorf("plan line faults %s=0.5: %v", spec.Name, err)
			}
			// explore --faults.
			if f, names, err := scenarios.ExploreFaults(spec.Name); err != nil || f.Probability[kind] == 0 || len(names) != 1 {
				t.Errorf("--faults %s: %v", spec.Name, err)
			}
			// sweep --vary, for the probability and the duration setting.
			for _, name := range settings {
				rng := "0:0.2:0.1"
				if name != spec.Name {
					rng = "100:200:100"
				}
				var out, errOut bytes.Buffer
				args := []string{"sweep", "double-billing", "--vary", name + "=" + rng, "--seeds", "2", "--ops", "2"}
				if code := execute(args, &out, &errOut); code != 0 {
					t.Errorf("once %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
				}
			}
			// The engine: probability 1 makes the fault happen.
			set := scenarios.Settings{Semantics: sim.Idempotent, Ops: 2, MaxEvents: 20_000}
			set.Faults.Probability[kind] = 1
			engineScenario := "double-billing"
			if spec.Links == sim.AtStores {
				engineScenario = "concurrent-same-key" // offered on a store's replies: needs a store node
			}
			base, _ := scenarios.Lookup(engineScenario)
			out, err := runs.Outcome(base, set, sim.NewRandom(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			if out.Faults.Of(spec.Choice) == 0 {
				t.Errorf("%s at probability 1 never happened (counts %+v)", spec.Name, out.Faults)
			}
			// Labels: the reports and the TUI go through these.
			if parts := strings.Join(report.FaultParts(set.Faults, "", true), " "); !strings.Contains(parts, spec.Name+" 1") {
				t.Errorf("the fault profile reads %q, want %q in it", parts, spec.Name+" 1")
			}
			if past := spec.Choice.Past(); past == "" || past == "unknown" ||
				!strings.Contains(strings.Join(report.FaultCountParts(out.Faults), " "), past) {
				t.Errorf("the fault counts %v lack the label %q", report.FaultCountParts(out.Faults), past)
			}
			// run: the flag reaches the report.
			var stdout, stderr bytes.Buffer
			args := []string{"run", "double-billing", "--semantics", "idem", "--ops", "2", "--" + spec.Name, "0.5"}
			if code := execute(args, &stdout, &stderr); code != 0 && code != 1 {
				t.Errorf("once %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
			}
			if !strings.Contains(stdout.String(), spec.Name+" 0.5") {
				t.Errorf("once %s: the report does not show %q", strings.Join(args, " "), spec.Name+" 0.5")
			}
		})
	}
}

// TestEveryFaultChoiceRoundTripsThroughAPlan formats one fault of every
// engine choice kind as a plan line (sim.Topology.FaultLine) and parses
// it back: the same fault must come out.
func TestEveryFaultChoiceRoundTripsThroughAPlan(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 1})
	if err != nil {
		t.Fatal(err)
	}
	topo := cfg.Topology
	service, _ := topo.NodeByName("service")
	client, _ := topo.NodeByName("client")
	msg, _ := topo.MessageByName("pay-response")
	point, ok := topo.PointByName("after-charge")
	if !ok {
		t.Fatal("double-billing has no after-charge point")
	}
	for _, kind := range sim.FaultChoiceKinds() {
		f := sim.Fault{Kind: kind, Node: service, Peer: client, Msg: msg, Op: 2, Attempt: 1, Occurrence: 3, Value: 1}
		if kind.AtPoint() {
			f.Peer, f.Point = sim.NoNode, point
		}
		line := topo.FaultLine(f)
		plan, err := scenarios.ParsePlan("p", []byte("scenario double-billing\nsemantics idem\n"+line+"\n"))
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		got, err := plan.Resolve("p", topo)
		if err != nil || len(got) != 1 || got[0] != f {
			t.Errorf("%s: parsed back as %+v (%v), want %+v", line, got, err, f)
		}
	}
}

// TestFaultKindNamesAreSpelledOnce reads every non-test Go file of the
// module and fails when a fault kind's name (or a duration setting's, or
// an engine choice's) is written as a string literal anywhere but in
// sim/faults.go — on its own ("ack-loss") or in a comma list
// ("loss,ack-loss,crash"). Struct tags and prose are not names.
func TestFaultKindNamesAreSpelledOnce(t *testing.T) {
	names := map[string]bool{}
	for _, n := range sim.FaultSettingNames() {
		names[n] = true
	}
	for _, n := range sim.FaultChoiceNames() {
		names[n] = true
	}
	// The same word meaning another thing, spelled by its own table.
	allowed := map[string]string{
		"scenarios/expect.go:dup": "the expectation claim dup (some run duplicates), not the fault kind",
	}
	root := "../.."
	var where []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "sim/faults.go" {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok && f.Tag != nil {
				return false // a struct field: its tag is no name
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, piece := range strings.Split(s, ",") {
				piece = strings.TrimSpace(piece)
				if !names[piece] {
					continue
				}
				if _, ok := allowed[rel+":"+piece]; ok {
					continue
				}
				where = append(where, fmt.Sprintf("%s: %q", rel, s))
				break
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(where) > 0 {
		t.Errorf("fault kind names spelled outside sim/faults.go (use the table):\n  %s", strings.Join(where, "\n  "))
	}
}

// TestDocsListEveryFaultFlag: docs/commands.md's table of fault flags is
// generated from the fault table — a row for every fault setting and
// every duration setting, with the table's help text and default — by
// `make update ONLY=docs` (this test with -rewrite).
func TestDocsListEveryFaultFlag(t *testing.T) {
	var b strings.Builder
	b.WriteString(faultFlagsStart + "\n| flag | meaning |\n|---|---|\n")
	for k := range sim.FaultKinds {
		s := &sim.FaultKinds[k]
		fmt.Fprintf(&b, "| `--%s P` | %s |\n", s.Name, s.Help)
		if d := s.Duration; d != nil {
			fmt.Fprintf(&b, "| `--%s N` | %s (default %d) |\n", d.Name, d.Help, d.Default)
		}
	}
	b.WriteString(faultFlagsEnd)
	golden.Block(t, "../../docs/commands.md", faultFlagsStart, faultFlagsEnd, b.String(), "rewrite", "docs")
}

// The markers of docs/commands.md's generated table of fault flags.
const (
	faultFlagsStart = "<!-- generated by `make update ONLY=docs` from sim.FaultKinds: do not edit by hand -->"
	faultFlagsEnd   = "<!-- end of the generated fault flags -->"
)
