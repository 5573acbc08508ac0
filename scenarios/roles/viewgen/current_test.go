package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generateLine is the line that runs viewgen in a family's folder.
const generateLine = "//go:generate go run ../viewgen"

// TestGeneratedFilesAreCurrent regenerates every family's codecs and
// round-trip test in a temporary folder and fails where the committed
// files differ (someone edited a tag without `go generate`, or edited
// generated code by hand), and where a family has views but no
// generate line, or generated files without views.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "*"))
	if err != nil {
		t.Fatal(err)
	}
	families := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || filepath.Base(dir) == "viewgen" {
			continue
		}
		hasLine := containsLine(t, dir, generateLine)
		_, _, err := readPackage(dir)
		hasViews := err == nil
		_, genErr := os.Stat(filepath.Join(dir, genFile))
		switch {
		case hasViews && !hasLine:
			t.Errorf("%s has views but no %q line", dir, generateLine)
		case hasLine && !hasViews:
			t.Errorf("%s runs viewgen, which fails: %v", dir, err)
		case !hasLine && genErr == nil:
			t.Errorf("%s has a %s but does not run viewgen", dir, genFile)
		}
		if !hasLine || !hasViews {
			continue
		}
		families++
		out := t.TempDir()
		if err := run(dir, out); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{genFile, testFile} {
			want, _ := os.ReadFile(filepath.Join(out, name))
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is stale (or edited by hand): run `go generate ./scenarios/roles/...` (make generate) and commit the result", filepath.Join(dir, name))
			}
		}
	}
	if families < 5 {
		t.Fatalf("checked %d families, want payments, queue, kafka, flink and generals at least", families)
	}
}

// containsLine reports whether a non-test Go file of dir has line.
func containsLine(t *testing.T, dir, line string) bool {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(src), "\n") {
			if strings.TrimSpace(l) == line {
				return true
			}
		}
	}
	return false
}
