package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/oncesim/once/internal/golden"

	course "github.com/oncesim/once/lesson"
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
		fmt.Fprintf(&errb, "once: %s\n", lang.ErrorLine(err))
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
		golden.Narrow(t, filepath.Base(file), "rewrite", "lesson", "", func(t *testing.T) {
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
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range c.Steps {
		n += len(s.Questions)
	}
	if full := fmt.Sprintf("Score: %d of %d predictions right.\n", n, n); !strings.Contains(string(data), full) {
		t.Errorf("all_right.txt does not end with a full score (%d of %d)", n, n)
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
	if !strings.Contains(first, "Результат: верно") {
		t.Errorf("no Russian score in:\n%s", first)
	}
}

// Bad flags are refused with one line and exit 2.
func TestLessonBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"lesson", "--plain", "--from", "nope"},
		{"lesson", "--plain", "--steps", "0"},
		{"lesson", "--plain", "--steps", "14"},
		{"lesson", "--plain", "--student", " "},
		{"lesson", "--out", "x", "--result", "r.json"},
		{"lesson", "grade"},
		{"lesson", "grade", "no-such-file.json"},
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
	code, stdout, _ := executeWithInput([]string{"lesson", "--steps", "3"}, "c\nc\nc\n")
	if code != exitOK || !strings.Contains(stdout, "Your answer (a-d): c") || !regexp.MustCompile(`Score: \d of 3`).MatchString(stdout) {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
}

// Three students' result files: each holds the name, the token, the
// course version and the letters given, and grade — which recomputes
// every answer — prints the roster and every question's success rate.
func TestLessonResultAndGrade(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, s := range []struct{ name, answers string }{
		{"ada", ""}, // ada's right answers to step 1, read from her transcript
		{"bogdan", "a\na\na\na\n"},
		{"chen", "b\nb\n"}, // the end of input before the results: nothing revealed
	} {
		f := filepath.Join(dir, s.name+".json")
		answers := s.answers
		if s.name == "ada" {
			answers = rightAnswers(t, "ada", "1")
		}
		code, _, stderr := executeWithInput([]string{"lesson", "--plain", "--steps", "1", "--student", s.name,
			"--token", course.Token(testClassKey, s.name), "--result", f}, answers)
		if code != exitOK {
			t.Fatalf("student %d: exit %d: %s", i, code, stderr)
		}
		files = append(files, f)
	}
	code, stdout, stderr := executeWithInput(append([]string{"lesson", "grade", "--class-key", testClassKey}, files...), "")
	if code != exitOK {
		t.Fatalf("grade: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Course version: course-", "ada ", "3/3", "bogdan", "chen", "0/0", "double-billing/", " %"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the roster lacks %q:\n%s", want, stdout)
		}
	}
	// The rates are per question of the bank: each counts the students
	// whose sheet drew it, ada's and bogdan's 3 questions in all.
	asked := 0
	for _, m := range regexp.MustCompile(`(?m)^double-billing/[a-z-]+\s+\d/(\d)\s+\d+ %$`).FindAllStringSubmatch(stdout, -1) {
		n, _ := strconv.Atoi(m[1])
		asked += n
	}
	if asked != 6 {
		t.Errorf("the success rates count %d answers, want ada's and bogdan's 6:\n%s", asked, stdout)
	}
}
