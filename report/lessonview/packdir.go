package lessonview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/oncesim/once/lesson"
)

// ErrPackDir marks a pack directory that cannot be used as given (not
// empty without force, unreadable): the user's mistake, not a failure.
var ErrPackDir = errors.New("lesson pack")

// WritePack puts the pack's files in dir at once: every file is written
// into a temporary directory beside dir, which is renamed into place only
// when all are written. A dir that holds anything is refused unless force.
func WritePack(dir string, force bool, files []PackFile) error {
	if entries, err := os.ReadDir(dir); err == nil {
		if len(entries) > 0 && !force {
			return fmt.Errorf("%w: --out %s: the directory is not empty (add --force to replace it)", ErrPackDir, dir)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: --out %s: %v", ErrPackDir, dir, err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	tmp, err := os.MkdirTemp(parent, ".once-lesson-*")
	if err != nil {
		return fmt.Errorf("%w: --out %s: %v", ErrPackDir, dir, err)
	}
	defer os.RemoveAll(tmp) // nothing is left there once renamed; everything is, on a failure
	for _, f := range files {
		path := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("lesson pack: %w", err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return fmt.Errorf("lesson pack: %w", err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("lesson pack: %w", err)
	}
	if _, err := os.Stat(dir); err == nil {
		old, err := os.MkdirTemp(parent, ".once-lesson-old-*")
		if err != nil {
			return fmt.Errorf("lesson pack: %w", err)
		}
		defer os.RemoveAll(old)
		aside := filepath.Join(old, "pack")
		if err := os.Rename(dir, aside); err != nil {
			return fmt.Errorf("lesson pack: moving the old %s aside: %w", dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			_ = os.Rename(aside, dir) // put the old one back
			return fmt.Errorf("lesson pack: %w", err)
		}
	} else if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("lesson pack: %w", err)
	}
	return nil
}

// WriteSteps renders the pack of the given steps of c (their views, the
// matrix excerpts from matrix, slides if asked) and puts it in dir at
// once (WritePack); the teacher's edition only when teacher is set (see
// Pack). It returns how many files besides index.md it wrote.
func WriteSteps(c *lesson.Course, steps []int, dir string, force, slides, teacher bool, matrix Matrix) (int, error) {
	var views []*StepView
	for _, i := range steps {
		v, err := Build(c, i)
		if err != nil {
			return 0, err
		}
		views = append(views, v)
	}
	files, err := Pack(views, matrix, slides, teacher)
	if err != nil {
		return 0, err
	}
	if err := WritePack(dir, force, files); err != nil {
		return 0, err
	}
	return len(files) - 1, nil
}
