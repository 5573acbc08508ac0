package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/scenarios"
)

// A file above the limit is read only up to the limit (plus the byte that
// proves it is above), and validate refuses it in one line, exit 2.
func TestInputFileReadIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(path, bytes.Repeat([]byte("# a comment line\n"), 3*scenarios.MaxScenarioFileBytes/17), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := fileio.Read(path, scenarios.MaxScenarioFileBytes)
	if err != nil || len(data) != scenarios.MaxScenarioFileBytes+1 {
		t.Fatalf("read %d bytes (%v); want %d", len(data), err, scenarios.MaxScenarioFileBytes+1)
	}
	var stdout, stderr bytes.Buffer
	code := execute([]string{"validate", path}, &stdout, &stderr)
	msg := stderr.String()
	if code != exitUsage || stdout.Len() != 0 || strings.Count(msg, "\n") != 1 ||
		!strings.Contains(msg, path+":61681:17: the file is larger than the limit of 1 MiB") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), msg)
	}
}
