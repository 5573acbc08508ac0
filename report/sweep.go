package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// SweepSchema identifies the JSON document of `once sweep`.
const SweepSchema = "once.sweep/v1"

// SweepDoc is the JSON contract of `once sweep --format json`: one
// parameter varied over points, every point run on seeds 1..Seeds with the
// other settings fixed.
type SweepDoc struct {
	Schema    string            `json:"schema"`
	Scenario  string            `json:"scenario"`
	Semantics string            `json:"semantics"`
	Alias     string            `json:"alias"`
	Seeds     int               `json:"seeds"`
	Vary      SweepVary         `json:"vary"`
	Ops       int               `json:"ops"`
	Faults    scenarios.Faults  `json:"fault_profile"` // the varied fault, if any, takes each point's value
	Params    map[string]string `json:"params"`        // the varied parameter, if any, takes each point's value
	Metrics   []string          `json:"metrics"`       // the scenario's metrics, in declaration order
	// MetricUnits are the metrics' units, by index of Metrics.
	MetricUnits []string     `json:"metric_units,omitempty"`
	Points      []SweepPoint `json:"points"`
	// Marks are values the scenario marks on the swept axis (a replay
	// horizon), and the knee of a rate, if the scenario declares one.
	Marks []SweepMarkDoc `json:"marks,omitempty"`
	// Rate is the rate the swept duration sets (1/value per second) set
	// against a measured rate, with its knee.
	Rate *SweepRateDoc `json:"rate,omitempty"`
}

// SweepMarkDoc is one marked value of the swept axis.
type SweepMarkDoc struct {
	Label string  `json:"label"`
	Value string  `json:"value"`
	X     float64 `json:"x"`
	// LabelText is Label in the reader's language (empty: Label).
	LabelText string `json:"-"`
}

// Text is the mark's label in the reader's language.
func (m SweepMarkDoc) Text() string {
	if m.LabelText != "" {
		return m.LabelText
	}
	return m.Label
}

// SweepRateDoc is a rate r = 1/vary beside a measured rate u per point;
// Knee is the first point's value where r < u ("" when there is none).
type SweepRateDoc struct {
	Name       string    `json:"name"`
	Versus     string    `json:"versus"`
	VersusName string    `json:"versus_name"`
	PerSecond  []float64 `json:"per_second"` // r at each point
	Knee       string    `json:"knee,omitempty"`
	KneeX      float64   `json:"knee_x,omitempty"`
}

// SweepVary says what was swept: a scenario parameter (kind "duration" or
// "int") or a fault probability (kind "probability").
type SweepVary struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	From string `json:"from"`
	To   string `json:"to"`
	Step string `json:"step"`
}

// SweepPoint is one value of the swept parameter over every seed. Rates
// are fractions of runs, rounded to 4 places; metrics are averages per run.
type SweepPoint struct {
	Value              string             `json:"value"` // as given to --set or the fault flag: "1.5s", "0.25"
	X                  float64            `json:"x"`     // the value as a number: milliseconds for durations
	Runs               int                `json:"runs"`
	Finished           int                `json:"finished"`
	RunsUnfinished     int                `json:"runs_unfinished"` // runs cut by a budget: their promise is unknown
	RunsWithLost       int                `json:"runs_with_lost"`
	RunsWithDuplicated int                `json:"runs_with_duplicated"`
	RunsWithViolation  int                `json:"runs_with_violation"`
	LostRate           float64            `json:"lost_rate"`
	LostCI95           [2]float64         `json:"lost_ci95"`
	DuplicatedRate     float64            `json:"duplicated_rate"`
	DuplicatedCI95     [2]float64         `json:"duplicated_ci95"`
	ViolationRate      float64            `json:"violation_rate"`
	ViolationCI95      [2]float64         `json:"violation_ci95"`
	UnfinishedRate     float64            `json:"unfinished_rate"`
	UnfinishedCI95     [2]float64         `json:"unfinished_ci95"`
	EffectsPerOp       float64            `json:"effects_per_op"`
	Metrics            map[string]float64 `json:"metrics"`
	Replay             string             `json:"replay,omitempty"` // the first unfinished run, if any
	// Liveness is the point's liveness verdict over its seeds (once sweep
	// --faults-until); absent when it had no liveness phase.
	Liveness *BatchLiveness `json:"liveness,omitempty"`
}

// NewSweepPoint fills a point from a tally; names label its metric sums.
func NewSweepPoint(value string, x float64, t *scenarios.Tally, names []string) SweepPoint {
	c := NewMatrixCell(t)
	p := SweepPoint{
		Value: value, X: x, Runs: c.Runs, Finished: c.Finished, RunsWithLost: c.RunsWithLost,
		RunsWithDuplicated: c.RunsWithDuplicated, RunsWithViolation: c.RunsWithViolation,
		LostRate: c.LostRate, LostCI95: c.LostCI95, DuplicatedRate: c.DuplicatedRate, DuplicatedCI95: c.DuplicatedCI95,
		ViolationRate: c.ViolationRate, ViolationCI95: c.ViolationCI95, EffectsPerOp: c.EffectsPerOp, Metrics: map[string]float64{},
		RunsUnfinished: c.RunsUnfinished, UnfinishedRate: c.UnfinishedRate, UnfinishedCI95: c.UnfinishedCI95,
	}
	for i, n := range names {
		v := 0.0
		if i < len(t.Metrics) && t.Runs > 0 {
			v = t.Metrics[i].Float64() / float64(t.Runs)
		}
		p.Metrics[n] = round4(v)
	}
	return p
}

// bar draws f in [0,1] as a bar of width cells, in eighths of a cell.
func bar(f float64, width int) string {
	eighths := int(math.Round(min(max(f, 0), 1) * float64(width*8)))
	s := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return s + strings.Repeat(" ", width-len([]rune(s)))
}

// WriteSweepText writes the human report of `once sweep`: one row per
// point, with a bar of the rate that moves most so the cliff shows.
func WriteSweepText(w io.Writer, d SweepDoc) error {
	var b strings.Builder
	v := d.Vary
	fmt.Fprintf(&b, "%s %s\n", styleTitle.Render(d.Scenario), lang.Tf("sweep.header", map[string]any{
		"Semantics": d.Semantics, "Name": v.Name, "From": lang.Value(v.From), "To": lang.Value(v.To), "Step": lang.Value(v.Step), "Seeds": d.Seeds}))
	f := d.Faults
	var fixed []string
	fixed = append(fixed, lang.N("count.operations", d.Ops))
	fixed = append(fixed, FaultParts(f, v.Name, false)...)
	for _, k := range sortedKeys(d.Params) {
		if k != v.Name {
			fixed = append(fixed, k+"="+d.Params[k])
		}
	}
	fmt.Fprintf(&b, "%s\n", styleDim.Render(strings.Join(fixed, " · ")))
	live := make([]livenessEntry, len(d.Points))
	for i := range d.Points {
		live[i] = livenessEntry{name: v.Name + "=" + d.Points[i].Value, runs: d.Points[i].Runs, l: d.Points[i].Liveness}
	}
	phase := livenessPhase(live)
	if phase != nil {
		fmt.Fprintf(&b, "%s\n", styleDim.Render(livenessPhaseLine(lang.Current(), phase)))
	}
	b.WriteString("\n")

	// Chart the rate that varies most: usually the duplicated one.
	chart, rateOf := lang.T("sweep.head_dup"), func(p *SweepPoint) float64 { return p.DuplicatedRate }
	spread := func(r func(*SweepPoint) float64) float64 {
		lo, hi := 1.0, 0.0
		for i := range d.Points {
			lo, hi = min(lo, r(&d.Points[i])), max(hi, r(&d.Points[i]))
		}
		return hi - lo
	}
	if lost := func(p *SweepPoint) float64 { return p.LostRate }; spread(lost) > spread(rateOf) {
		chart, rateOf = lang.T("sweep.head_lost"), lost
	}
	unfinished := false
	for i := range d.Points {
		unfinished = unfinished || d.Points[i].RunsUnfinished > 0
	}
	headers := []string{v.Name, lang.T("sweep.head_runs"), lang.T("sweep.head_lost"), lang.T("sweep.head_dup")}
	if unfinished {
		headers = append(headers, lang.T("sweep.head_unfinished"))
	}
	if phase != nil {
		headers = append(headers, lang.T("batch_liveness.head"))
	}
	headers = append(headers, lang.T("sweep.head_effects"))
	if d.Rate != nil {
		headers = append(headers, d.Rate.Name+" (/s)")
	}
	for i, m := range d.Metrics {
		md := MetricDoc{Name: m}
		if i < len(d.MetricUnits) {
			md.Unit = d.MetricUnits[i]
		}
		if d.Rate != nil && m == d.Rate.Versus {
			md.Name = d.Rate.VersusName + " = " + m
		}
		headers = append(headers, MetricHead(md))
	}
	headers = append(headers, chart+" 0–"+lang.Percent("100"))
	marks := d.markTexts()
	if len(marks) > 0 {
		headers = append(headers, lang.T("sweep.head_mark"))
	}
	t := newTable(headers...)
	for i := range d.Points {
		p := &d.Points[i]
		lost := pct(p.LostRate, p.LostCI95)
		if p.Finished == 0 && p.Runs > 0 {
			lost = lang.T("sweep.none_finished") // a loss shows only on a finished run
		}
		row := []string{lang.Value(p.Value), strconv.Itoa(p.Runs), lost, pct(p.DuplicatedRate, p.DuplicatedCI95)}
		if unfinished {
			row = append(row, pct(p.UnfinishedRate, p.UnfinishedCI95))
		}
		if phase != nil {
			row = append(row, unsettledText(p.Liveness, true))
		}
		row = append(row, lang.Decimal(strconv.FormatFloat(p.EffectsPerOp, 'f', 3, 64)))
		if d.Rate != nil {
			row = append(row, lang.Decimal(strconv.FormatFloat(d.Rate.PerSecond[i], 'f', 2, 64)))
		}
		for _, m := range d.Metrics {
			row = append(row, lang.Decimal(strconv.FormatFloat(p.Metrics[m], 'f', 2, 64)))
		}
		row = append(row, bar(rateOf(p), 20))
		if len(marks) > 0 {
			row = append(row, styleWarn.Render(marks[i]))
		}
		t.Row(row...)
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	if unfinished {
		fmt.Fprintf(&b, "\n%s\n", styleWarn.Render(lang.T("sweep.unfinished")))
		for i := range d.Points {
			if p := &d.Points[i]; p.RunsUnfinished > 0 {
				fmt.Fprintf(&b, "  %s\n", lang.Nf("sweep.unfinished_point", p.Runs, map[string]any{
					"Point": v.Name + "=" + p.Value, "Unfinished": p.RunsUnfinished, "Runs": p.Runs, "Replay": p.Replay}))
			}
		}
	}
	b.WriteString(livenessLines(lang.Current(), live, true, "  ", false))
	_, err := io.WriteString(w, b.String())
	return err
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// markTexts says, per point, which marks fall on it or just before it:
// a mark sits on the first point at or past its value ("← replay horizon
// 1m"), the knee on its point. Nil when the sweep has no mark.
func (d *SweepDoc) markTexts() []string {
	if len(d.Marks) == 0 && (d.Rate == nil || d.Rate.Knee == "") {
		return nil
	}
	out := make([]string, len(d.Points))
	add := func(i int, text string) {
		if out[i] != "" {
			out[i] += "; "
		}
		out[i] += text
	}
	for _, m := range d.Marks {
		for i := range d.Points {
			if d.Points[i].X >= m.X {
				rel := "← "
				if d.Points[i].X == m.X {
					rel = "= "
				}
				add(i, rel+m.Text()+" "+m.Value)
				break
			}
		}
	}
	if r := d.Rate; r != nil && r.Knee != "" {
		for i := range d.Points {
			if d.Points[i].Value == r.Knee {
				add(i, lang.Tf("sweep.knee", map[string]any{"R": r.Name, "U": r.VersusName}))
			}
		}
	}
	return out
}
