package sim_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// scenariosPath is the catalog's import path: sim is the engine the
// catalog is built on, so neither sim nor its tests may depend on it.
const scenariosPath = "github.com/oncesim/once/scenarios"

// TestSimTestsDoNotImportScenarios: no test file under sim/ imports the
// catalog (or a package under it). A test that needs real scenarios
// belongs in scenarios/enginetest. (make test-split checks the transitive
// imports with go list.)
func TestSimTestsDoNotImportScenarios(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p == scenariosPath || strings.HasPrefix(p, scenariosPath+"/") {
				t.Errorf("sim/%s imports %s: move the test to scenarios/enginetest", filepath.ToSlash(path), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("found %d test files under sim/: the walk is not looking at sim's tests", files)
	}
}
