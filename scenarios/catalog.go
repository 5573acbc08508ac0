package scenarios

import (
	"fmt"
	"sort"
	"strings"
)

var catalog = map[string]*Scenario{}

func register(s *Scenario) {
	if _, dup := catalog[s.Name]; dup {
		panic("scenarios: duplicate scenario " + s.Name)
	}
	catalog[s.Name] = s
}

// All returns the catalog in name order.
func All() []*Scenario {
	out := make([]*Scenario, 0, len(catalog))
	for _, s := range catalog {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the scenario called name, or an error listing the catalog.
func Lookup(name string) (*Scenario, error) {
	if s, ok := catalog[name]; ok {
		return s, nil
	}
	names := make([]string, 0, len(catalog))
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("unknown scenario %q (try: %s)", name, strings.Join(names, ", "))
}
