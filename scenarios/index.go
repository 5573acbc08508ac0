package scenarios

import (
	_ "embed"
	"encoding/json"
	"path"
	"strings"
	"sync"
)

// The catalog's index: what `once list` and shell completion read of every
// built-in scenario, kept beside the catalog so that they decode no
// scenario file (decoding all of them cost `once list` and every
// completion about a quarter of a second of CPU). TestCatalogIndexIsCurrent
// holds it to the files; `make update` rewrites it.

//go:embed catalog_index.json
var indexJSON []byte

// IndexEntry is one catalog scenario as `once list` and completion show
// it.
type IndexEntry struct {
	Name      string   `json:"name"`
	Topology  string   `json:"topology"`
	Semantics []string `json:"semantics"` // aliases: amo, alo, idem, txn
	Summary   string   `json:"summary"`
	Params    []string `json:"params,omitempty"` // the parameters' names
}

var index = sync.OnceValue(func() []IndexEntry {
	var out []IndexEntry
	if err := json.Unmarshal(indexJSON, &out); err != nil {
		panic("scenarios: the embedded catalog index is invalid: " + err.Error())
	}
	return out
})

// Index is the catalog's index, in name order.
func Index() []IndexEntry { return index() }

// IndexOf is the index entries of scs, in their order: what the embedded
// index must hold for the catalog (MarshalIndex writes it).
func IndexOf(scs []*Scenario) []IndexEntry {
	out := make([]IndexEntry, 0, len(scs))
	for _, s := range scs {
		e := IndexEntry{Name: s.Name, Topology: s.Topology, Summary: s.Summary, Semantics: []string{}}
		for _, sem := range s.Semantics {
			e.Semantics = append(e.Semantics, sem.Alias())
		}
		for _, p := range s.Params {
			e.Params = append(e.Params, p.Name)
		}
		out = append(out, e)
	}
	return out
}

// MarshalIndex is the bytes of catalog_index.json for entries.
func MarshalIndex(entries []IndexEntry) ([]byte, error) {
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Names are the catalog's scenario names, in name order, read from its
// file names (a catalog file is named after its scenario) without
// decoding a file.
func Names() []string {
	entries, err := catalogFS.ReadDir("catalog")
	if err != nil {
		panic("scenarios: " + err.Error())
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && path.Ext(e.Name()) == ".yaml" {
			out = append(out, name)
		}
	}
	return out
}
