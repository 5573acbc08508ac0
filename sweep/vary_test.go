package sweep

import (
	"reflect"
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
)

// TestParseVaryPoints: points run from from to to inclusive in steps, with
// floating-point noise rounded away, in the unit each kind is written in.
func TestParseVaryPoints(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		vary string
		want []string
	}{
		{"loss=0:0.3:0.1", []string{"0", "0.1", "0.2", "0.3"}},
		{"crash=0.05:0.2:0.05", []string{"0.05", "0.1", "0.15", "0.2"}},
		{"loss=0.5:0.5:0.1", []string{"0.5"}},
		{"loss=0:1:0.3", []string{"0", "0.3", "0.6", "0.9"}},
		{"ttl=0:2s:750ms", []string{"0ms", "750ms", "1.5s"}},
		{"timeout=1.5s:2s:250", []string{"1.5s", "1.75s", "2s"}},
	} {
		s, err := ParseVary(c.vary, sc)
		if err != nil {
			t.Fatalf("%s: %v", c.vary, err)
		}
		var got []string
		for _, p := range s.Points {
			got = append(got, p.Value)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: points %v, want %v", c.vary, got, c.want)
		}
	}
}

func TestParseVaryRefuses(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	for vary, want := range map[string]string{
		"ttl":              "want name=from:to:step",
		"loss=0:2:0.1":     "to: 2 is not a probability",
		"loss=0.5:0.1:0.1": "from must not be greater than to",
		"loss=0:0.5:0":     "step must be greater than 0",
		"loss=0:1:0.0001":  "points, at most 1000",
		"colour=0:1:1":     `unknown parameter "colour"`,
		"store=0:1:1":      "is an enum",
		"ttl=0:5s:nope":    "step: ",
		"loss=NaN:0.5:0.1": `from: "NaN" is not a number`,
	} {
		if _, err := ParseVary(vary, sc); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "--vary ") {
			t.Errorf("ParseVary(%q) = %v, want %q", vary, err, want)
		}
	}
}

// TestConfigsSetThePoint: every point's settings carry its value, and the
// base settings are not changed.
func TestConfigsSetThePoint(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseVary("ttl=0:2s:1s", sc)
	if err != nil {
		t.Fatal(err)
	}
	base := scenarios.Settings{Semantics: sc.Semantics[0], Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{"store": "memory"}}
	cfgs, sets, err := s.Configs(sc, base)
	if err != nil || len(cfgs) != 3 {
		t.Fatalf("%d configs, %v", len(cfgs), err)
	}
	for i, set := range sets {
		if set.Params["ttl"] != s.Points[i].Value || set.Params["store"] != "memory" {
			t.Errorf("point %d: params %v", i, set.Params)
		}
	}
	if _, ok := base.Params["ttl"]; ok {
		t.Error("the base settings were changed")
	}
	if got := s.Labels(); got[2] != "ttl=2s" {
		t.Errorf("labels %v", got)
	}
}
