package main

import (
	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
)

// markSweep adds the scenario's sweep hints for the swept parameter: the
// marks (a replay horizon, at the run's own value of its parameter) and
// the rate r = 1/value with its knee, the first point where r falls below
// the measured rate it is set against.
func markSweep(doc *report.SweepDoc, sc *scenarios.Scenario, spec *sweepSpec) error {
	if spec.kind != "duration" {
		return nil
	}
	for _, m := range sc.Sweep.Marks {
		if m.Vary != spec.name {
			continue
		}
		v, err := m.MarkValue(doc.Params)
		if err != nil {
			return err
		}
		d, err := scenarios.ParseDuration(v)
		if err != nil {
			return usageErr("sweep mark %s: %v", m.Label, err)
		}
		doc.Marks = append(doc.Marks, report.SweepMarkDoc{Label: m.Label, Value: v, X: float64(d), LabelText: lessonText(sc, "mark."+m.Label, m.Label)})
	}
	r := sc.Sweep.Rate
	if r == nil || r.Vary != spec.name {
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
