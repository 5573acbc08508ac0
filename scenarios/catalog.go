package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/oncesim/once/internal/usererr"
)

//go:embed catalog/*.yaml
var catalogFS embed.FS

// The catalog is decoded on demand: a command that names one scenario
// decodes that file alone (catalog/NAME.yaml: a test holds every file to
// its scenario's name), and All decodes the rest once. Decoding all 41
// files took most of a single run's start-up.
var (
	catalogMu  sync.Mutex
	catalog    = map[string]*Scenario{}
	catalogAll bool
)

// loadCatalogFile decodes one built-in file with RoleCatalog, which holds
// every family's roles, invariants and metrics. The catalog is written in
// the same format as user scenario files and loaded the same way, so it
// proves the format.
func loadCatalogFile(file string) *Scenario {
	data, err := catalogFS.ReadFile(file)
	if err != nil {
		panic("scenarios: " + err.Error())
	}
	sc, err := Load(file, data)
	if err != nil {
		panic("scenarios: built-in scenario is invalid: " + err.Error())
	}
	if want := path.Base(file); sc.Name+".yaml" != want {
		panic("scenarios: built-in scenario " + sc.Name + " is in " + file + ": a catalog file is named after its scenario")
	}
	sc.builtIn = true
	return sc
}

// loadCatalog decodes every built-in file not decoded yet. The caller
// holds catalogMu.
func loadCatalog() {
	if catalogAll {
		return
	}
	entries, err := catalogFS.ReadDir("catalog")
	if err != nil {
		panic("scenarios: " + err.Error())
	}
	for _, e := range entries {
		file := path.Join("catalog", e.Name())
		if path.Ext(file) != ".yaml" {
			continue
		}
		name := e.Name()[:len(e.Name())-len(".yaml")]
		if _, done := catalog[name]; !done {
			catalog[name] = loadCatalogFile(file)
		}
	}
	catalogAll = true
}

// All returns the catalog in name order.
func All() []*Scenario {
	catalogMu.Lock()
	defer catalogMu.Unlock()
	loadCatalog()
	out := make([]*Scenario, 0, len(catalog))
	for _, s := range catalog {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// lookupFile returns the scenario called name from its own catalog file,
// decoding that file alone on first use; nil when no file has the name.
func lookupFile(name string) *Scenario {
	catalogMu.Lock()
	defer catalogMu.Unlock()
	if s, ok := catalog[name]; ok {
		return s
	}
	if catalogAll || !fs.ValidPath(name) || strings.ContainsAny(name, "/\\") {
		return nil
	}
	file := path.Join("catalog", name+".yaml")
	if _, err := fs.Stat(catalogFS, file); err != nil {
		return nil
	}
	s := loadCatalogFile(file)
	catalog[name] = s
	return s
}

// Lookup returns the scenario called name, or an error listing the catalog.
func Lookup(name string) (*Scenario, error) {
	if s := lookupFile(name); s != nil {
		return s, nil
	}
	best, bestDist := "", 4
	for _, n := range Names() {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
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
