package scenarios

import (
	"fmt"
	"slices"
	"strings"
)

// SweepHints tell `once sweep` what to mark on its axis, so the lesson's
// threshold is in the table and on the plot: the replay horizon a TTL must
// pass, or the point where a reconciler falls behind.
type SweepHints struct {
	Marks []SweepMark
	Rate  *SweepRate
}

// SweepMark is a value to mark when Vary is swept: At is a duration or
// "$param" (the parameter's value in the run, so --set moves the mark).
type SweepMark struct {
	Vary  string
	At    string
	Label string
}

// SweepRate shows, when the duration parameter Vary is swept, the rate it
// sets (Name = 1/Vary per second) beside the metric Versus (a rate per
// second, named VersusName), and marks the knee: the first point where
// the rate falls below the metric.
type SweepRate struct {
	Vary       string
	Name       string
	Versus     string
	VersusName string
}

// sweepSpec is sweep: in a scenario file.
type sweepSpec struct {
	Marks []sweepMarkSpec `yaml:"marks" doc:"values to mark on the axis when a parameter is swept: the threshold of the lesson"`
	Rate  *sweepRateSpec  `yaml:"rate" doc:"when a duration parameter is swept, the rate it sets (1/value per second) beside a metric, with the knee marked"`
}

type sweepMarkSpec struct {
	Vary  Scalar `yaml:"vary" value:"word" doc:"the swept parameter"`
	At    Scalar `yaml:"at" value:"any" doc:"a duration, or $NAME: the parameter's value in the run"`
	Label Scalar `yaml:"label" value:"text" doc:"the mark's label"`
}

type sweepRateSpec struct {
	Vary       Scalar `yaml:"vary" value:"word" doc:"the swept duration parameter"`
	Name       Scalar `yaml:"name" value:"word" doc:"the rate's name on the chart"`
	Versus     Scalar `yaml:"versus" value:"word" doc:"the metric (a rate per second) it is compared with"`
	VersusName Scalar `yaml:"versus-name" value:"text" doc:"the metric's name on the chart"`
}

// durationParam reports whether name is a duration parameter of sc.
func durationParam(sc *Scenario, name string) bool {
	return slices.ContainsFunc(sc.Params, func(p Param) bool { return p.Name == name && p.Kind == ParamDuration })
}

func (l *loader) compileSweep(sc *Scenario) error {
	s := &l.spec.Sweep
	for _, m := range s.Marks {
		for _, f := range []struct {
			v     Scalar
			field string
		}{{m.Vary, "sweep.marks[].vary"}, {m.At, "sweep.marks[].at"}, {m.Label, "sweep.marks[].label"}} {
			if err := l.require(f.v, f.field); err != nil {
				return err
			}
		}
		if !durationParam(sc, m.Vary.Text) {
			return l.errAt(m.Vary, "sweep.marks[].vary: %q is not a duration parameter of the scenario", m.Vary.Text)
		}
		if name, ok := strings.CutPrefix(m.At.Text, "$"); ok {
			if !durationParam(sc, name) {
				return l.errAt(m.At, "sweep.marks[].at: %q is not a duration parameter of the scenario", name)
			}
		} else if _, err := ParseDuration(m.At.Text); err != nil {
			return l.errAt(m.At, "sweep.marks[].at: %v", err)
		}
		sc.Sweep.Marks = append(sc.Sweep.Marks, SweepMark{Vary: m.Vary.Text, At: m.At.Text, Label: strings.TrimSpace(m.Label.Text)})
	}
	if r := s.Rate; r != nil {
		for _, f := range []struct {
			v     Scalar
			field string
		}{{r.Vary, "sweep.rate.vary"}, {r.Name, "sweep.rate.name"}, {r.Versus, "sweep.rate.versus"}, {r.VersusName, "sweep.rate.versus-name"}} {
			if err := l.require(f.v, f.field); err != nil {
				return err
			}
		}
		if !durationParam(sc, r.Vary.Text) {
			return l.errAt(r.Vary, "sweep.rate.vary: %q is not a duration parameter of the scenario", r.Vary.Text)
		}
		if !slices.ContainsFunc(l.spec.Metrics, func(m Scalar) bool { return m.Text == r.Versus.Text }) {
			return l.errAt(r.Versus, "sweep.rate.versus: %q is not one of the scenario's metrics", r.Versus.Text)
		}
		if u := l.cat.MetricUnit(r.Versus.Text); u != "/s" {
			return l.errAt(r.Versus, "sweep.rate.versus: metric %s is in %q, not a rate per second (/s)", r.Versus.Text, u)
		}
		sc.Sweep.Rate = &SweepRate{Vary: r.Vary.Text, Name: r.Name.Text, Versus: r.Versus.Text, VersusName: r.VersusName.Text}
	}
	return nil
}

// MarkValue resolves a mark's value against the run's parameter values
// (name=value pairs, as ResolveParams gives them).
func (m SweepMark) MarkValue(params map[string]string) (string, error) {
	if name, ok := strings.CutPrefix(m.At, "$"); ok {
		v, found := params[name]
		if !found {
			return "", fmt.Errorf("sweep mark %s: no parameter %s", m.Label, name)
		}
		return v, nil
	}
	return m.At, nil
}
