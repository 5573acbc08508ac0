// Package sweep is `once sweep`'s library: --vary parsed against a
// scenario into points, one run configuration per point, and the report
// document of the measured points with the scenario's sweep marks.
package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// MaxPoints bounds the points of one sweep.
const MaxPoints = 1000

// Point is one value of the swept parameter.
type Point struct {
	Value string  // as --set or a fault flag takes it
	X     float64 // as a number (ticks for durations)
}

// Spec is a parsed --vary.
type Spec struct {
	Name   string
	Kind   string // duration, int, probability
	From   string
	To     string
	Step   string
	Points []Point
}

// ParseVary reads name=from:to:step against sc. Every error names --vary.
func ParseVary(spec string, sc *scenarios.Scenario) (*Spec, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("--vary %s: %s", spec, fmt.Sprintf(format, args...))
	}
	name, rng, ok := strings.Cut(spec, "=")
	name = strings.TrimSpace(name)
	parts := strings.Split(rng, ":")
	if !ok || name == "" || len(parts) != 3 {
		return nil, fmt.Errorf("--vary %q: want name=from:to:step (e.g. ttl=0:5s:500ms or loss=0:0.5:0.05)", spec)
	}
	s := &Spec{Name: name}
	var param *scenarios.Param
	for i := range sc.Params {
		if sc.Params[i].Name == name {
			param = &sc.Params[i]
		}
	}
	switch {
	case param != nil && param.Kind == scenarios.ParamDuration:
		s.Kind = "duration"
	case param != nil && param.Kind == scenarios.ParamInt:
		s.Kind = "int"
	case param != nil:
		return nil, bad("parameter %s is an enum (%s): sweep a duration or integer parameter, or a fault probability", name, param.Describe())
	case sim.IsFaultSetting(name):
		s.Kind = "int" // a duration setting, in milliseconds
		if _, ok := sim.ParseFaultKind(name); ok {
			s.Kind = "probability"
		}
	default:
		var names []string
		for _, p := range sc.Params {
			if p.Kind != scenarios.ParamEnum {
				names = append(names, p.Name)
			}
		}
		names = append(names, sim.FaultSettingNames()...)
		return nil, bad("unknown parameter %q (scenario %s can sweep: %s)", name, sc.Name, strings.Join(names, ", "))
	}
	var nums [3]float64
	for i, what := range []string{"from", "to", "step"} {
		text := strings.TrimSpace(parts[i])
		switch s.Kind {
		case "duration":
			d, err := scenarios.ParseDuration(text)
			if err != nil {
				return nil, bad("%s: %v", what, err)
			}
			nums[i] = float64(d)
		case "int":
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil || n < -1e15 || n > 1e15 {
				return nil, bad("%s: %q is not an integer", what, text)
			}
			nums[i] = float64(n)
		default:
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, bad("%s: %q is not a number", what, text)
			}
			if what != "step" && (f < 0 || f > 1) {
				return nil, bad("%s: %s is not a probability in [0,1]", what, text)
			}
			nums[i] = f
		}
	}
	from, to, step := nums[0], nums[1], nums[2]
	if !(step > 0) {
		return nil, bad("step must be greater than 0")
	}
	if from > to {
		return nil, bad("from must not be greater than to")
	}
	steps := math.Floor((to-from)/step + 1e-9)
	if steps+1 > MaxPoints {
		return nil, bad("%.0f points, at most %d (take a larger step)", steps+1, MaxPoints)
	}
	format := func(x float64) string {
		switch s.Kind {
		case "duration":
			return sim.Time(x).String()
		case "int":
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(math.Round(x*1e9)/1e9, 'f', -1, 64)
	}
	s.From, s.To, s.Step = format(from), format(to), format(step)
	for i := 0; i <= int(steps); i++ {
		x := from + float64(i)*step
		if s.Kind != "probability" {
			x = math.Round(x)
		} else {
			x = min(math.Round(x*1e9)/1e9, 1)
		}
		s.Points = append(s.Points, Point{Value: format(x), X: x})
	}
	return s, nil
}
