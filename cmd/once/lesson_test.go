package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oncesim/once/report/lang"
)

// executeWithInput is execute with stdin: the lesson reads its answers.
func executeWithInput(args []string, stdin string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	root := newRootCmd(&out, &errb)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	defer lang.Set(lang.English)
	err := root.Execute()
	code = exitOK
	if err != nil {
		code = exitUsage
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		fmt.Fprintf(&errb, "once: %s\n", strings.TrimSpace(err.Error()))
	}
	return code, out.String(), errb.String()
}

// TestLessonPlain runs the scripts under testdata/lesson: each `lesson`
// block is `once lesson --plain` with the given flags, its input the file
// of answers read from standard input (all right, all wrong, garbage then
// the end of input), and its expected output the transcript with the
// score. Refresh with: go test ./cmd/once/ -run 'TestLessonPlain$' -rewrite
func TestLessonPlain(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	files, err := filepath.Glob("../../testdata/lesson/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lesson scripts found: %v", err)
	}
	for _, file := range files {
		datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "lesson" {
				t.Fatalf("%s: unknown directive %q", d.Pos, d.Cmd)
			}
			args := []string{"lesson", "--plain"}
			for _, a := range d.CmdArgs {
				args = append(args, "--"+a.Key)
				if len(a.Vals) > 0 {
					args = append(args, strings.Join(a.Vals, ","))
				}
			}
			code, stdout, stderr := executeWithInput(args, d.Input)
			s := fmt.Sprintf("exit %d\n%s", code, stdout)
			if stderr != "" {
				s += "stderr:\n" + stderr
			}
			return s
		})
	}
}

// Answering every question right scores every question; the score is
// computed, not copied from the file of answers.
func TestLessonAllRightScoresAll(t *testing.T) {
	data, err := os.ReadFile("../../testdata/lesson/all_right.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Score: 27 of 27 predictions right.\n") {
		t.Error("all_right.txt does not end with a full score")
	}
}

// The same answers give the same transcript, byte for byte, run after run.
func TestLessonDeterministic(t *testing.T) {
	answers := "a\nb\nc\nb\na\nb\n"
	_, first, _ := executeWithInput([]string{"lesson", "--plain", "--steps", "1,10", "--lang", "ru"}, answers)
	for i := 0; i < 3; i++ {
		if _, again, _ := executeWithInput([]string{"lesson", "--plain", "--steps", "1,10", "--lang", "ru"}, answers); again != first {
			t.Fatalf("run %d differs from the first", i+2)
		}
	}
	if !strings.Contains(first, "Счёт:") {
		t.Errorf("no Russian score in:\n%s", first)
	}
}

// Bad flags are refused with one line and exit 2.
func TestLessonBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"lesson", "--plain", "--from", "nope"},
		{"lesson", "--plain", "--steps", "0"},
		{"lesson", "--plain", "--steps", "11"},
		{"lesson", "--plain", "--from", "2", "--steps", "3"},
		{"lesson", "--plain", "--force"},
		{"lesson", "extra"},
	} {
		code, _, stderr := executeWithInput(args, "")
		if code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, stderr)
		}
	}
}

// Without --plain, output that is not a terminal gets the line quiz.
func TestLessonFallsBackToPlain(t *testing.T) {
	code, stdout, _ := executeWithInput([]string{"lesson", "--steps", "10"}, "b\n")
	if code != exitOK || !strings.Contains(stdout, "Your answer (a-b): b") || !strings.Contains(stdout, "Score: 1 of 1") {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
}
