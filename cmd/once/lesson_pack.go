package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
)

// lessonMatrixSeeds is how many seeds the pack's matrix excerpts run (a
// variable so that a test that reads only the words can run fewer).
var lessonMatrixSeeds = 100

// writeLessonPack renders the pack of the given steps and puts it in dir
// at once (see lessonview.WritePack); the teacher's edition with teacher
// (the class key was given).
func writeLessonPack(c *course.Course, steps []int, dir string, force, slides, teacher bool, out io.Writer) error {
	n, err := lessonview.WriteSteps(c, steps, dir, force, slides, teacher, lessonMatrix)
	if errors.Is(err, lessonview.ErrPackDir) {
		return usageErr("%v", strings.TrimPrefix(err.Error(), lessonview.ErrPackDir.Error()+": "))
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: index.md and %d files\n", dir, n)
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
