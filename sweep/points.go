package sweep

import (
	"fmt"
	"maps"
	"strings"

	"github.com/oncesim/once/batch"
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Configs builds the run configuration of every point: base with the
// swept parameter or fault setting at the point's value.
func (s *Spec) Configs(sc *scenarios.Scenario, base scenarios.Settings) ([]*sim.Config, []scenarios.Settings, error) {
	cfgs := make([]*sim.Config, len(s.Points))
	sets := make([]scenarios.Settings, len(s.Points))
	for i, p := range s.Points {
		set := base
		set.Params = maps.Clone(base.Params)
		if set.Params == nil {
			set.Params = map[string]string{}
		}
		if sim.IsFaultSetting(s.Name) {
			if err := set.Faults.Set(s.Name, p.Value); err != nil {
				return nil, nil, fmt.Errorf("--vary %w", err)
			}
		} else {
			set.Params[s.Name] = p.Value
		}
		cfg, err := sc.Config(set)
		if err != nil {
			return nil, nil, fmt.Errorf("--vary %s=%s: %w", s.Name, p.Value, err)
		}
		cfgs[i], sets[i] = cfg, set
	}
	return cfgs, sets, nil
}

// Labels name the points as a shard file's rows: name=value.
func (s *Spec) Labels() []string {
	out := make([]string, len(s.Points))
	for i, p := range s.Points {
		out[i] = s.Name + "=" + p.Value
	}
	return out
}

// Doc is the report of a sweep of sc under sem over seeds: every point's
// tally, with a replay line where a run did not finish, and the
// scenario's marks for the swept parameter. cfg0 is the first point's
// configuration (its metrics name the columns).
func (s *Spec) Doc(sc *scenarios.Scenario, sem sim.Semantics, seeds int, base scenarios.Settings, sets []scenarios.Settings,
	cfg0 *sim.Config, tallies []batch.Tally) (report.SweepDoc, error) {
	var metrics []string
	if cfg0.Metrics != nil {
		for _, m := range cfg0.Metrics() {
			metrics = append(metrics, m.Name())
		}
	}
	vals, _ := scenarios.ResolveParams(sc.Params, base.Params)
	doc := report.SweepDoc{
		Schema: report.SweepSchema, Scenario: sc.Name, Semantics: sem.String(), Alias: sem.Alias(), Seeds: seeds,
		Vary: report.SweepVary{Name: s.Name, Kind: s.Kind, From: s.From, To: s.To, Step: s.Step},
		Ops:  base.Ops, Faults: base.Faults, Params: map[string]string{}, Metrics: append([]string{}, metrics...),
	}
	for _, kv := range vals.Sorted() {
		k, v, _ := strings.Cut(kv, "=")
		doc.Params[k] = v
	}
	for _, m := range metrics {
		doc.MetricUnits = append(doc.MetricUnits, sc.Roles().MetricUnit(m))
	}
	for i, p := range s.Points {
		if tallies[i].Runs == 0 {
			continue // never reached: an interrupted sweep reports the points that ran
		}
		pt := report.NewSweepPoint(p.Value, p.X, &tallies[i].Tally, metrics)
		if seed := tallies[i].FirstUnfinished; seed != 0 {
			pt.Replay = runs.Command(sc, sem, seed, sets[i])
		}
		pt.Liveness = report.NewBatchLiveness(sets[i].FaultsUntil, sets[i].Settle, tallies[i].Runs, tallies[i].Unsettled)
		if seed := tallies[i].FirstUnsettled; pt.Liveness != nil && seed != 0 {
			pt.Liveness.Replay = runs.Command(sc, sem, seed, sets[i])
		}
		doc.Points = append(doc.Points, pt)
	}
	return doc, s.mark(&doc, sc)
}

// mark adds the scenario's sweep hints for the swept parameter: the marks
// (a replay horizon, at the run's own value of its parameter) and the
// rate r = 1/value with its knee, the first point where r falls below the
// measured rate it is set against.
func (s *Spec) mark(doc *report.SweepDoc, sc *scenarios.Scenario) error {
	if s.Kind != "duration" {
		return nil
	}
	for _, m := range sc.Sweep.Marks {
		if m.Vary != s.Name {
			continue
		}
		v, err := m.MarkValue(doc.Params)
		if err != nil {
			return err
		}
		d, err := scenarios.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("sweep mark %s: %w", m.Label, err)
		}
		doc.Marks = append(doc.Marks, report.SweepMarkDoc{Label: m.Label, Value: v, X: float64(d), LabelText: runs.Text(sc, "mark."+m.Label, m.Label)})
	}
	r := sc.Sweep.Rate
	if r == nil || r.Vary != s.Name {
		return nil
	}
	rd := &report.SweepRateDoc{Name: r.Name, Versus: r.Versus, VersusName: r.VersusName}
	for i := range doc.Points {
		p := &doc.Points[i]
		perSecond := 0.0
		if p.X > 0 {
			perSecond = 1000 / p.X // X is in milliseconds
		}
		rd.PerSecond = append(rd.PerSecond, perSecond)
		if rd.Knee == "" && perSecond < p.Metrics[r.Versus] {
			rd.Knee, rd.KneeX = p.Value, p.X
		}
	}
	doc.Rate = rd
	return nil
}
