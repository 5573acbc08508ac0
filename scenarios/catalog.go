package scenarios

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"sync"

	"github.com/oncesim/once/internal/usererr"
)

//go:embed catalog/*.yaml
var catalogFS embed.FS

var (
	catalog     = map[string]*Scenario{}
	catalogOnce sync.Once
)

// loadCatalog loads the built-in catalog on first use, after every role,
// invariant and metric has registered. It is written in the same format as
// user scenario files and loaded the same way, so the catalog itself
// proves the format.
func loadCatalog() {
	entries, err := catalogFS.ReadDir("catalog")
	if err != nil {
		panic("scenarios: " + err.Error())
	}
	for _, e := range entries {
		file := path.Join("catalog", e.Name())
		data, err := catalogFS.ReadFile(file)
		if err != nil {
			panic("scenarios: " + err.Error())
		}
		sc, err := Load(file, data)
		if err != nil {
			panic("scenarios: built-in scenario is invalid: " + err.Error())
		}
		if _, dup := catalog[sc.Name]; dup {
			panic("scenarios: duplicate scenario " + sc.Name)
		}
		catalog[sc.Name] = sc
	}
}

// All returns the catalog in name order.
func All() []*Scenario {
	catalogOnce.Do(loadCatalog)
	out := make([]*Scenario, 0, len(catalog))
	for _, s := range catalog {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the scenario called name, or an error listing the catalog.
func Lookup(name string) (*Scenario, error) {
	catalogOnce.Do(loadCatalog)
	if s, ok := catalog[name]; ok {
		return s, nil
	}
	best, bestDist := "", 4
	for _, s := range All() {
		if d := editDistance(name, s.Name); d < bestDist {
			best, bestDist = s.Name, d
		}
	}
	if best != "" {
		return nil, usererr.New("unknown_scenario_hint", map[string]any{"Name": name, "Best": best},
			fmt.Sprintf("unknown scenario %q (did you mean %s? see: once list)", name, best))
	}
	return nil, usererr.New("unknown_scenario", map[string]any{"Name": name}, fmt.Sprintf("unknown scenario %q (see: once list)", name))
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
