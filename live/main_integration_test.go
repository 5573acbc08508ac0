//go:build integration

package live

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// onceBinary is the once executable the tests start as the service
// process: built once, into a temporary directory, by TestMain.
var onceBinary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "once-live-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "live tests:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	onceBinary = filepath.Join(dir, "once")
	build := exec.Command("go", "build", "-o", onceBinary, "github.com/oncesim/once/cmd/once")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "live tests: building once:", err)
		return 1
	}
	return m.Run()
}

// postgresDSN returns the DSN of the PostgreSQL tests (ONCE_TEST_POSTGRES).
// Without it the test is skipped — except in CI, where it fails: CI must
// run them.
func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("ONCE_TEST_POSTGRES")
	if dsn != "" {
		return dsn
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("ONCE_TEST_POSTGRES is not set: CI must run the PostgreSQL tests (.ci/run sets it up)")
	}
	t.Skip("ONCE_TEST_POSTGRES is not set (a postgres:// DSN); .ci/postgres sets one up")
	return ""
}
