package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
	course "github.com/oncesim/once/scenarios/lesson"
)

// lessonMatrixSeeds is how many seeds the pack's matrix excerpts run.
const lessonMatrixSeeds = 100

// writeLessonPack renders the pack of the given steps and puts it in dir
// at once: every file is written into a temporary directory beside dir,
// which is renamed into place only when all are written. A dir that holds
// anything is refused unless force.
func writeLessonPack(c *course.Course, steps []int, dir string, force bool, out io.Writer) error {
	if entries, err := os.ReadDir(dir); err == nil {
		if len(entries) > 0 && !force {
			return usageErr("--out %s: the directory is not empty (add --force to replace it)", dir)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return usageErr("--out %s: %v", dir, err)
	}
	var views []*lessonview.StepView
	for _, i := range steps {
		v, err := lessonview.Build(c, i)
		if err != nil {
			return err
		}
		views = append(views, v)
	}
	files, err := lessonview.Pack(views, lessonMatrix)
	if err != nil {
		return err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	tmp, err := os.MkdirTemp(parent, ".once-lesson-*")
	if err != nil {
		return usageErr("--out %s: %v", dir, err)
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
	fmt.Fprintf(out, "%s: index.md and %d files\n", dir, len(files)-1)
	return nil
}

// lessonMatrix is the Markdown of `once matrix SCENARIO` over the pack's
// seeds, in the current language.
func lessonMatrix(scenario string) (string, error) {
	var stdout, stderr bytes.Buffer
	code := execute([]string{"matrix", scenario, "--seeds", strconv.Itoa(lessonMatrixSeeds), "--format", "md",
		"--lang", string(lang.Current())}, &stdout, &stderr)
	if code != exitOK {
		return "", fmt.Errorf("lesson pack: matrix %s: %s", scenario, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.String(), nil
}
