package svg

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// sweepTestPoint builds a point from counts of runs the way a sweep does:
// rates and Wilson intervals rounded to 4 places.
func sweepTestPoint(value string, x float64, runs, lost, dup, violated int, metrics map[string]float64) report.SweepPoint {
	p := report.SweepPoint{Value: value, X: x, Runs: runs, Finished: runs, RunsWithLost: lost, RunsWithDuplicated: dup,
		RunsWithViolation: violated, EffectsPerOp: 1, Metrics: metrics}
	p.LostRate, p.LostCI95 = rate(lost, runs)
	p.DuplicatedRate, p.DuplicatedCI95 = rate(dup, runs)
	p.ViolationRate, p.ViolationCI95 = rate(violated, runs)
	return p
}

// rate returns k/n and its 95% Wilson interval rounded to 4 places, as a
// sweep reports them.
func rate(k, n int) (float64, [2]float64) {
	round4 := func(f float64) float64 { return math.Round(f*10_000) / 10_000 }
	lo, hi := report.Wilson95(k, n)
	r := 0.0
	if n > 0 {
		r = float64(k) / float64(n)
	}
	return round4(r), [2]float64{round4(lo), round4(hi)}
}

// goldenSweepDoc is a small TTL sweep shaped like expired-dedup-ttl's:
// duplicates fall off a cliff at the replay horizon, a few runs lose an
// operation, one point breaks an invariant, and two metrics are declared.
func goldenSweepDoc() report.SweepDoc {
	d := report.SweepDoc{
		Schema: report.SweepSchema, Scenario: "expired-dedup-ttl", Semantics: "at-least-once+idempotent", Alias: "idem", Seeds: 200,
		Vary:    report.SweepVary{Name: "ttl", Kind: "duration", From: "15s", To: "75s", Step: "15s"},
		Ops:     10,
		Faults:  scenarios.Faults{Probability: [sim.MaxFaultKinds]float64{sim.FaultLoss: 0.02, sim.FaultAckLoss: 0.05, sim.FaultCrash: 0.1}},
		Params:  map[string]string{"ttl": "15s", "retry": "1s", "interval": "10s", "replay": "1m"},
		Metrics: []string{"oldest-duplicate-age", "late-<replays>"},
	}
	for i, c := range []struct {
		dup, lost, viol int
		age, late       float64
	}{{117, 0, 0, 26.87, 3}, {106, 2, 0, 27.89, 2.5}, {88, 0, 4, 28.39, 1.25}, {6, 1, 0, 29.08, 0.5}, {0, 0, 0, 29.12, 0}} {
		x := float64(15_000 * (i + 1))
		d.Points = append(d.Points, sweepTestPoint(swDuration(int64(x)), x, 200, c.lost, c.dup, c.viol,
			map[string]float64{"late-<replays>": c.late, "oldest-duplicate-age": c.age}))
	}
	return d
}

func renderSweepSVG(t *testing.T, d report.SweepDoc) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSweep(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSweepSVGGolden pins the chart of a small sweep in
// testdata/svg/sweep-expired-dedup-ttl.svg. Refresh it with
//
//	make update ONLY=svg
//
// and look at it (rsvg-convert renders it to PNG) before committing.
func TestSweepSVGGolden(t *testing.T) {
	d := goldenSweepDoc()
	got := renderSweepSVG(t, d)
	file := filepath.Join("..", "..", "testdata", "svg", "sweep-expired-dedup-ttl.svg")
	if golden.Rewrite(*rewrite, "svg", "expired-dedup-ttl") {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (create it with make update ONLY=svg)", err)
	}
	if !bytes.Equal(got, want) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(g) && i < len(w); i++ {
			if g[i] != w[i] {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(refresh with make update ONLY=svg and look at the picture)%s", file, i+1, g[i], w[i], golden.Left(*rewrite, "svg", "expired-dedup-ttl"))
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d (refresh with make update ONLY=svg)%s", file, len(g), len(w), golden.Left(*rewrite, "svg", "expired-dedup-ttl"))
	}
	for _, s := range []string{
		">expired-dedup-ttl · at-least-once+idempotent</text>",
		">sweep ttl from 15s to 75s step 15s · 200 seeds per point (1..200)</text>",
		">10 operations · loss 0.02 · ack-loss 0.05 · dup 0 · ", "interval=10s", "replay=1m", "retry=1s", // where the subtitle breaks depends on the kinds (below)
		">duplicated</text>", ">lost</text>", ">invariant broken</text>", ">95% Wilson interval</text>",
		">15s</text>", ">30s</text>", ">1m</text>", ">1m15s</text>",
		">0%</text>", ">100%</text>", ">share of runs</text>", ">ttl (scenario parameter)</text>",
		">mean oldest-duplicate-age per run</text>", ">mean late-&lt;replays&gt; per run</text>",
		"<title>ttl 45s: duplicated 44.0% (95%: 37.3–50.9%): 88 of 200 runs had an operation take effect twice or more</title>",
		"<title>ttl 45s: mean oldest-duplicate-age 28.39 per run</title>",
	} {
		if !strings.Contains(string(got), s) {
			t.Errorf("the chart lacks %q", s)
		}
	}
	// Every fault kind of the table is in the subtitle (where its lines
	// break depends on how many kinds there are: a new kind moves them).
	for _, part := range report.FaultParts(d.Faults, d.Vary.Name, false) {
		if !strings.Contains(string(got), part+" ·") && !strings.Contains(string(got), part+"</text>") {
			t.Errorf("the chart's subtitle lacks %q", part)
		}
	}
	// The metric panels come in the doc's order, not the map's.
	if i, j := strings.Index(string(got), "mean oldest-duplicate-age per run"), strings.Index(string(got), "mean late-&lt;replays&gt; per run"); i < 0 || j < i {
		t.Error("the metric panels are not in declaration order")
	}
}

// TestSweepSVGWellFormed renders sweeps of every kind and shape, including
// degenerate ones, and decodes each as XML.
func TestSweepSVGWellFormed(t *testing.T) {
	prob := report.SweepDoc{Scenario: "double-billing", Semantics: "at-least-once", Seeds: 50, Ops: 5,
		Vary: report.SweepVary{Name: "ack-loss", Kind: "probability", From: "0", To: "0.6", Step: "0.05"}}
	for i := 0; i <= 12; i++ {
		x := math.Round(float64(i)*0.05*1e9) / 1e9
		prob.Points = append(prob.Points, sweepTestPoint(swProbLabel(x), x, 50, 0, min(50, i*5), 0, map[string]float64{}))
	}
	many := report.SweepDoc{Scenario: "double-billing", Semantics: "at-least-once+idempotent", Seeds: 3, Ops: 5,
		Vary: report.SweepVary{Name: "ttl", Kind: "duration", From: "10ms", To: "10s", Step: "10ms"}, Metrics: []string{"m"}}
	for i := 1; i <= 1000; i++ {
		many.Points = append(many.Points, sweepTestPoint(swDuration(int64(10*i)), float64(10*i), 3, 0, (1000-i)%4, i%2, map[string]float64{"m": float64(i)}))
	}
	ints := report.SweepDoc{Scenario: "two-generals", Semantics: "at-most-once", Seeds: 10, Ops: 1,
		Vary: report.SweepVary{Name: "rounds", Kind: "int", From: "1", To: "5", Step: "2"}}
	for _, r := range []int{1, 3, 5} {
		ints.Points = append(ints.Points, sweepTestPoint(strconv.Itoa(r), float64(r), 10, r, 0, 10-2*r, nil))
	}
	one := prob
	one.Points = prob.Points[3:4]
	escaped := goldenSweepDoc()
	escaped.Scenario, escaped.Semantics = "a<b>&\"c\" \x01", "x'y"
	escaped.Params = map[string]string{"k<1>": "v&w"}
	escaped.Points[1].Metrics["oldest-duplicate-age"] = math.NaN()
	escaped.Points[2].Metrics["late-<replays>"] = math.Inf(1)
	flat := goldenSweepDoc()
	for i := range flat.Points {
		flat.Points[i].Metrics = map[string]float64{"oldest-duplicate-age": -2.5} // negative and constant
	}
	for name, d := range map[string]report.SweepDoc{
		"golden": goldenSweepDoc(), "probability": prob, "1000 points": many, "int": ints, "one point": one,
		"no points": {Scenario: "s", Semantics: "at-least-once", Vary: report.SweepVary{Name: "loss", Kind: "probability"}, Metrics: []string{"m"}},
		"empty":     {},
		"escaped":   escaped, "flat metric": flat,
	} {
		t.Run(name, func(t *testing.T) {
			doc := renderSweepSVG(t, d)
			root, n := wellFormed(t, doc)
			if root != "svg" {
				t.Fatalf("root element <%s>, want <svg>", root)
			}
			if n < 10 {
				t.Fatalf("only %d elements", n)
			}
		})
	}
	doc := string(renderSweepSVG(t, escaped))
	for _, s := range []string{"a&lt;b&gt;&amp;&quot;c&quot;  · x&apos;y", "k&lt;1&gt;=v&amp;w"} {
		if !strings.Contains(doc, s) {
			t.Errorf("no %q in the escaped chart", s)
		}
	}
	// A thousand points are labelled on round values, not on every point.
	doc = string(renderSweepSVG(t, many))
	for _, s := range []string{">1s</text>", ">5s</text>", ">10s</text>"} {
		if !strings.Contains(doc, s) {
			t.Errorf("the 1000-point chart lacks the tick %q", s)
		}
	}
	if strings.Contains(doc, ">1.01s</text>") || strings.Contains(doc, "<title>") {
		t.Error("the 1000-point chart labels or marks every point")
	}
	// Probabilities are plain numbers.
	doc = string(renderSweepSVG(t, prob))
	for _, s := range []string{">0</text>", ">0.05</text>", ">0.6</text>", ">ack-loss (fault probability)</text>"} {
		if !strings.Contains(doc, s) {
			t.Errorf("the probability chart lacks %q", s)
		}
	}
	if strings.Contains(doc, "invariant broken") {
		t.Error("a sweep without violations draws an invariant line")
	}
}

func swProbLabel(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// TestSweepSVGDeterministic renders equal documents built separately (so
// their maps are filled anew) and wants the same bytes.
func TestSweepSVGDeterministic(t *testing.T) {
	a := renderSweepSVG(t, goldenSweepDoc())
	for range 5 {
		if b := renderSweepSVG(t, goldenSweepDoc()); !bytes.Equal(a, b) {
			t.Fatal("two renderings of the same sweep differ")
		}
	}
	// Points filled by report.NewSweepPoint from tallies, as the CLI does.
	tally := func(dup int, m float64) *scenarios.Tally {
		t := &scenarios.Tally{Runs: 20, Finished: 20, WithDup: dup, Ops: 100, Effects: 100 + dup, Metrics: make([]scenarios.ExactSum, 2)}
		t.Metrics[0].Add(m)
		t.Metrics[1].Add(2 * m)
		return t
	}
	mk := func() []byte {
		d := report.SweepDoc{Scenario: "x", Semantics: "at-least-once", Seeds: 20, Ops: 5, Metrics: []string{"b", "a"},
			Vary: report.SweepVary{Name: "timeout", Kind: "duration", From: "500ms", To: "1.5s", Step: "500ms"}}
		for i, dup := range []int{12, 5, 0} {
			x := float64(500 * (i + 1))
			d.Points = append(d.Points, report.NewSweepPoint(swDuration(int64(x)), x, tally(dup, float64(dup)), d.Metrics))
		}
		return renderSweepSVG(t, d)
	}
	if !bytes.Equal(mk(), mk()) {
		t.Error("two renderings of sweeps from equal tallies differ")
	}
}

// TestSweepSVGTwins: a rate equal to another at every point is drawn
// dashed over it and named so in the legend; a rate that stays at zero
// says so.
func TestSweepSVGTwins(t *testing.T) {
	d := goldenSweepDoc()
	for i := range d.Points {
		p := &d.Points[i]
		p.RunsWithViolation, p.ViolationRate, p.ViolationCI95 = p.RunsWithDuplicated, p.DuplicatedRate, p.DuplicatedCI95
		p.RunsWithLost, p.LostRate, p.LostCI95 = 0, 0, [2]float64{0, 0.0188}
	}
	doc := string(renderSweepSVG(t, d))
	for _, s := range []string{">invariant broken (= duplicated)</text>", ">lost (none)</text>", `stroke-dasharray="8 6"`} {
		if !strings.Contains(doc, s) {
			t.Errorf("no %q in the chart", s)
		}
	}
}

func TestSwDuration(t *testing.T) {
	for ms, want := range map[int64]string{0: "0", 250: "250ms", 1000: "1s", 1500: "1.5s", 45_000: "45s", 60_000: "1m",
		75_000: "1m15s", 90_500: "90.5s", 3_600_000: "1h", 5_430_000: "1h30m30s", -2000: "-2s"} {
		if got := swDuration(ms); got != want {
			t.Errorf("swDuration(%d) = %q, want %q", ms, got, want)
		}
	}
}

func TestSwNiceScale(t *testing.T) {
	for _, c := range []struct {
		lo, hi         float64
		wantLo, wantHi float64
		ticks          []float64
		dec            int
	}{
		{0, 15.68, 0, 20, []float64{0, 5, 10, 15, 20}, 0},
		{0, 29.12, 0, 30, []float64{0, 10, 20, 30}, 0},
		{0, 0, 0, 1, []float64{0, 0.25, 0.5, 0.75, 1}, 2},
		{0, 1.9, 0, 2, []float64{0, 0.5, 1, 1.5, 2}, 1},
		{-2.5, 0, -3, 0, []float64{-3, -2, -1, 0}, 0},
		{0, 9, 0, 10, []float64{0, 2.5, 5, 7.5, 10}, 1},
	} {
		lo, hi, ticks, dec := swNiceScale(c.lo, c.hi)
		if lo != c.wantLo || hi != c.wantHi || !reflect.DeepEqual(ticks, c.ticks) || dec != c.dec {
			t.Errorf("swNiceScale(%v, %v) = %v, %v, %v, %d; want %v, %v, %v, %d", c.lo, c.hi, lo, hi, ticks, dec, c.wantLo, c.wantHi, c.ticks, c.dec)
		}
	}
}

// unfinishedSweepDoc is a max-events-like sweep built from tallies the way
// the CLI builds it: the first point finishes every run, the second only
// some (a budget cut the rest), the last two none at all.
func unfinishedSweepDoc() report.SweepDoc {
	d := report.SweepDoc{Scenario: "double-billing", Semantics: "at-least-once", Seeds: 20, Ops: 5,
		Vary: report.SweepVary{Name: "timeout", Kind: "duration", From: "500ms", To: "2s", Step: "500ms"}}
	for i, c := range []struct{ finished, dup, lost int }{{20, 6, 1}, {8, 2, 0}, {0, 0, 0}, {0, 0, 0}} {
		x := float64(500 * (i + 1))
		t := &scenarios.Tally{Runs: 20, Finished: c.finished, WithDup: c.dup, WithLost: c.lost, Ops: 100, Effects: 100}
		d.Points = append(d.Points, report.NewSweepPoint(swDuration(int64(x)), x, t, nil))
	}
	return d
}

// TestSweepSVGUnfinished: a point where a budget cut every run has no
// verdict: it is drawn as unfinished (a hollow grey marker, in the
// legend), never as 0% lost or duplicated; a point where some runs were
// cut shows its unfinished rate next to its rates.
func TestSweepSVGUnfinished(t *testing.T) {
	doc := string(renderSweepSVG(t, unfinishedSweepDoc()))
	if _, n := wellFormed(t, []byte(doc)); n < 10 {
		t.Fatalf("only %d elements", n)
	}
	for _, s := range []string{
		">unfinished: no verdict</text>",
		`fill="#ffffff" stroke="` + swUnfinished + `"`,
		"<title>timeout 1.5s: unfinished 100.0% ",
		"<title>timeout 2s: unfinished 100.0% ",
		"<title>timeout 1s: unfinished 60.0% (95%: ",
		"<title>timeout 1s: duplicated 10.0% ",
		"<title>timeout 500ms: duplicated 30.0% ",
	} {
		if !strings.Contains(doc, s) {
			t.Errorf("the chart lacks %q", s)
		}
	}
	for _, s := range []string{"<title>timeout 1.5s: lost", "<title>timeout 1.5s: duplicated", "<title>timeout 2s: lost", "<title>timeout 2s: duplicated"} {
		if strings.Contains(doc, s) {
			t.Errorf("a point where no run finished is drawn with a rate: %q", s)
		}
	}
	// No line runs on into the points without a verdict: the rate lines
	// end at the second point (x of 1s).
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "<polyline") && !strings.Contains(line, swUnfinished) && strings.Count(strings.SplitN(line, `"`, 3)[1], ",") != 2 {
			t.Errorf("a rate line runs past the last point with a verdict: %s", line)
		}
	}
	// Without unfinished runs there is no unfinished series.
	if strings.Contains(string(renderSweepSVG(t, goldenSweepDoc())), "unfinished") {
		t.Error("a sweep where every run finished draws an unfinished series")
	}
	if out := os.Getenv("ONCE_SVG_OUT"); out != "" { // to look at it: rsvg-convert renders it to PNG
		if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
