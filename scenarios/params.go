package scenarios

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// ParamKind is the type of a scenario parameter.
type ParamKind uint8

// Parameter types.
const (
	ParamEnum     ParamKind = iota + 1 // one of Values
	ParamDuration                      // virtual duration: 250ms, 30s, 5m, 24h, or plain ticks
	ParamInt                           // integer in [Min, Max]
)

// Param declares one scenario parameter, settable with --set name=value.
type Param struct {
	Name    string
	Kind    ParamKind
	Default string
	Values  []string // ParamEnum
	Min     int64    // ParamInt, ParamDuration (in ticks)
	Max     int64    // ParamInt, ParamDuration; 0 = no upper bound
	Doc     string
}

// Values holds validated parameter values by name.
type Values struct {
	raw map[string]string
	num map[string]int64
}

// String returns a parameter's value as text.
func (v Values) String(name string) string { return v.raw[name] }

// Int returns an integer or duration parameter.
func (v Values) Int(name string) int64 { return v.num[name] }

// Duration returns a duration parameter in ticks.
func (v Values) Duration(name string) sim.Time { return sim.Time(v.num[name]) }

// Is reports whether enum parameter name has value want.
func (v Values) Is(name, want string) bool { return v.raw[name] == want }

// Sorted returns "name=value" pairs in name order (for display and plans).
func (v Values) Sorted() []string {
	out := make([]string, 0, len(v.raw))
	for k, val := range v.raw {
		out = append(out, k+"="+val)
	}
	sort.Strings(out)
	return out
}

// ParseDuration reads a virtual duration: "0", "250", "250ms", "1.5s",
// "5m", "24h". A bare number is ticks (milliseconds).
func ParseDuration(s string) (sim.Time, error) { return roles.ParseDuration(s) }

func (p *Param) parse(val string) (int64, error) {
	switch p.Kind {
	case ParamEnum:
		for _, v := range p.Values {
			if v == val {
				return 0, nil
			}
		}
		values := strings.Join(p.Values, "|")
		return 0, usererr.New("bad_param_value", map[string]any{"Name": p.Name, "Value": val, "Values": values},
			fmt.Sprintf("parameter %s: %q is not one of %s", p.Name, val, values))
	case ParamDuration:
		d, err := ParseDuration(val)
		if err != nil {
			return 0, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		if int64(d) < p.Min || (p.Max > 0 && int64(d) > p.Max) {
			return 0, fmt.Errorf("parameter %s: %s is outside [%s, %s]", p.Name, d, sim.Time(p.Min), sim.Time(p.Max))
		}
		return int64(d), nil
	case ParamInt:
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parameter %s: %q is not an integer", p.Name, val)
		}
		if n < p.Min || (p.Max > 0 && n > p.Max) {
			return 0, fmt.Errorf("parameter %s: %d is outside [%d, %d]", p.Name, n, p.Min, p.Max)
		}
		return n, nil
	}
	return 0, fmt.Errorf("parameter %s: unknown kind", p.Name)
}

// Describe returns the parameter's allowed values for help text.
func (p *Param) Describe() string {
	switch p.Kind {
	case ParamEnum:
		return strings.Join(p.Values, "|")
	case ParamDuration:
		return "duration"
	case ParamInt:
		return fmt.Sprintf("integer %d..%d", p.Min, p.Max)
	}
	return ""
}

// ResolveParams validates overrides ("name" → "value") against decl and
// fills in defaults. An unknown name or a bad value is an error naming it.
func ResolveParams(decl []Param, overrides map[string]string) (Values, error) {
	v := Values{raw: map[string]string{}, num: map[string]int64{}}
	names := make([]string, 0, len(overrides))
	for k := range overrides {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		found := false
		for i := range decl {
			found = found || decl[i].Name == k
		}
		if !found {
			known := make([]string, len(decl))
			for i := range decl {
				known[i] = decl[i].Name
			}
			return v, usererr.New("unknown_param", map[string]any{"Name": k, "Known": strings.Join(known, ", ")},
				fmt.Sprintf("unknown parameter %q (this scenario has: %s)", k, strings.Join(known, ", ")))
		}
	}
	for i := range decl {
		p := &decl[i]
		val, ok := overrides[p.Name]
		if !ok {
			val = p.Default
		}
		n, err := p.parse(val)
		if err != nil {
			return v, err
		}
		v.raw[p.Name] = val
		v.num[p.Name] = n
	}
	return v, nil
}

// ParseSet splits "name=value" as given to --set.
func ParseSet(s string) (string, string, error) {
	k, val, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return "", "", usererr.New("want_name_value", map[string]any{"Arg": s}, fmt.Sprintf("--set %q: want name=value", s))
	}
	return k, strings.TrimSpace(val), nil
}
