package lang

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLangDoesNotImportScenarios: the locale package sits below the
// scenarios package; it reads the lessons' translation files from their
// own small package (scenarios/catalog/i18n), not through scenarios.
func TestLangDoesNotImportScenarios(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/oncesim/once/scenarios" {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
