package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/oncesim/once/"

// root is the module's folder: two up from this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", r, err)
	}
	return r
}

// rank is the layer of a package (path relative to the module), by its
// longest entry in Layers; -1 when none names it.
func rank(pkg string) int {
	best, bestLen := -1, -1
	for i, layer := range Layers {
		for _, p := range layer {
			if (pkg == p || strings.HasPrefix(pkg, p+"/")) && len(p) > bestLen {
				best, bestLen = i, len(p)
			}
		}
	}
	return best
}

// goFiles calls f with every non-test Go file of the module (deploy/ is
// a module of its own) and its package's path relative to the module.
func goFiles(t *testing.T, f func(pkg, path string, file *ast.File, fset *token.FileSet)) int {
	t.Helper()
	r := root(t)
	n := 0
	err := filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); rel == "deploy" || rel == "bin" || name == "testdata" || (strings.HasPrefix(name, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		f(filepath.ToSlash(filepath.Dir(rel)), rel, file, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestImportsPointDown: no package imports a package of a higher layer,
// and every package of the module has a layer.
func TestImportsPointDown(t *testing.T) {
	n := goFiles(t, func(pkg, path string, file *ast.File, _ *token.FileSet) {
		from := rank(pkg)
		if from < 0 {
			t.Errorf("%s: package %s is in no layer of layers.go", path, pkg)
			return
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			to := strings.TrimPrefix(p, module)
			if r := rank(to); r > from {
				t.Errorf("%s: %s (layer %d) imports %s (layer %d), a layer above it", path, pkg, from, to, r)
			}
		}
	})
	if n < 200 {
		t.Fatalf("walked %d Go files: the walk is not looking at the module", n)
	}
}

// TestSimImportsStandardLibraryOnly: the engine depends on nothing but
// the standard library (an import path without a dot in its first
// element), so it can be read, tested and reused alone.
func TestSimImportsStandardLibraryOnly(t *testing.T) {
	goFiles(t, func(pkg, path string, file *ast.File, _ *token.FileSet) {
		if pkg != "sim" {
			return
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") || strings.HasPrefix(p, module) {
				t.Errorf("%s imports %s: sim imports the standard library only", path, p)
			}
		}
	})
}

// TestSearchImportsSimOnly: the search (sim/search) stands on the
// engine's exported API alone — sim and the standard library — so sim is
// the engine and nothing else reaches into it.
func TestSearchImportsSimOnly(t *testing.T) {
	n := 0
	goFiles(t, func(pkg, path string, file *ast.File, _ *token.FileSet) {
		if pkg != "sim/search" {
			return
		}
		n++
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			if p != module+"sim" && (strings.Contains(first, ".") || strings.HasPrefix(p, module)) {
				t.Errorf("%s imports %s: sim/search imports sim and the standard library only", path, p)
			}
		}
	})
	if n == 0 {
		t.Fatal("no file of sim/search walked: the test would prove nothing")
	}
}

// TestOneWayToRunAWorld: outside the engine (sim) and the explorer
// (sim/search, explore), which build worlds themselves, one call site builds a world — the run
// service's — so that every surface runs a scenario the same way.
func TestOneWayToRunAWorld(t *testing.T) {
	var sites []string
	goFiles(t, func(pkg, path string, file *ast.File, fset *token.FileSet) {
		if pkg == "sim" || strings.HasPrefix(pkg, "sim/") || pkg == "explore" {
			return
		}
		simName := ""
		for _, imp := range file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"sim" {
				simName = "sim"
				if imp.Name != nil {
					simName = imp.Name.Name
				}
			}
		}
		if simName == "" {
			return
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == simName && sel.Sel.Name == "NewWorld" {
				sites = append(sites, fset.Position(call.Pos()).String())
			}
			return true
		})
	})
	if len(sites) != 1 || !strings.Contains(sites[0], filepath.Join("runs", "execute.go")) {
		t.Errorf("sim.NewWorld is called at %d non-test sites outside sim and explore, want one (runs/execute.go): %v", len(sites), sites)
	}
}
