package lessonview

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/oncesim/once/lesson"
)

// A pack of one step is written whole, and a second one into the same
// directory is refused without force.
func TestWriteStepsWritesThePackOnce(t *testing.T) {
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pack")
	matrix := func(scenario string) (string, error) { return "| matrix of " + scenario + " |\n", nil }
	n, err := WriteSteps(c, []int{0}, dir, false, false, true, matrix)
	if err != nil {
		t.Fatal(err)
	}
	if n < 1 {
		t.Errorf("%d files besides index.md", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.md")); err != nil {
		t.Error(err)
	}
	if _, err := WriteSteps(c, []int{0}, dir, false, false, true, matrix); !errors.Is(err, ErrPackDir) {
		t.Errorf("a second pack into %s: %v, want ErrPackDir", dir, err)
	}
}
