package scenarios

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
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
	names := make([]string, 0, len(catalog))
	for _, s := range All() {
		names = append(names, s.Name)
	}
	return nil, fmt.Errorf("unknown scenario %q (try: %s)", name, strings.Join(names, ", "))
}
