package scenarios_test

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/oncesim/once/internal/golden"
	"github.com/oncesim/once/scenarios"
)

// The embedded index is the catalog's, field for field: list and
// completion read it instead of the files, so a scenario file edited
// without `make update` fails here. With -rewrite the test writes it.
func TestCatalogIndexIsCurrent(t *testing.T) {
	all := scenarios.All()
	want, err := scenarios.MarshalIndex(scenarios.IndexOf(all))
	if err != nil {
		t.Fatal(err)
	}
	if golden.Rewrite(rewriting(), "catalog-index", "") {
		if err := os.WriteFile("catalog_index.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("catalog_index.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("scenarios/catalog_index.json is not the catalog's index: run make update ONLY=catalog-index and read the diff" + golden.Left(rewriting(), "catalog-index", ""))
	}
	if len(scenarios.Index()) != len(all) || len(all) < 40 {
		t.Fatalf("the index has %d entries, the catalog %d", len(scenarios.Index()), len(all))
	}
	var names []string
	for _, s := range all {
		names = append(names, s.Name)
	}
	if got := scenarios.Names(); !slices.Equal(got, names) {
		t.Fatalf("Names() = %v, want the catalog's %v", got, names)
	}
}
