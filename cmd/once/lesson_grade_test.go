package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	course "github.com/oncesim/once/lesson"
)

// testClassKey is the class key of the tests (at least 16 bytes).
const testClassKey = "test-class-key-0123456789"

// revealRE reads the right letter of each question from a line quiz's
// reveal, whatever was answered.
var revealRE = regexp.MustCompile(`(?m)^[✓✗] (?:Right: |Not quite: it is |It is )([a-z])\)`)

// quizResult runs the line quiz of the given steps as the issued student
// name, answering answers, and returns the transcript and the result
// file it wrote.
func quizResult(t *testing.T, dir, name, steps, answers string) (transcript, file string) {
	t.Helper()
	file = filepath.Join(dir, name+".json")
	code, stdout, stderr := executeWithInput([]string{"lesson", "--plain", "--steps", steps, "--student", name,
		"--token", course.Token(testClassKey, name), "--result", file}, answers)
	if code != exitOK {
		t.Fatalf("lesson as %s: exit %d: %s", name, code, stderr)
	}
	return stdout, file
}

// rightAnswers are the right answers of the issued student name to the
// given steps, one a line, read from the reveal of a quiz answered "a".
func rightAnswers(t *testing.T, name, steps string) string {
	t.Helper()
	out, _ := quizResult(t, t.TempDir(), name, steps, strings.Repeat("a\n", 60))
	var b strings.Builder
	for _, m := range revealRE.FindAllStringSubmatch(out, -1) {
		b.WriteString(m[1] + "\n")
	}
	return b.String()
}

// grade runs `once lesson grade --class-key testClassKey FILES…`.
func grade(files ...string) (code int, stdout, stderr string) {
	return executeWithInput(append([]string{"lesson", "grade", "--class-key", testClassKey}, files...), "")
}

// editRecord rewrites a result file through edit, as a student with an
// editor would.
func editRecord(t *testing.T, file, to string, edit func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(to, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestHostileLessonGrade is the hostile-input table of `once lesson
// grade` (issue 30's grading that does not trust the file, issue 35's
// grading bounds): each file is refused with one line naming it and the
// reason, exit 2, and no roster.
func TestHostileLessonGrade(t *testing.T) {
	dir := t.TempDir()
	_, ada := quizResult(t, dir, "ada", "1", "a\nb\nc\nd\n")
	_, bogdan := quizResult(t, dir, "bogdan", "1", "a\nb\nc\nd\n")
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	adaData, _ := os.ReadFile(ada)
	answers := func(m map[string]any) []any { return m["answers"].([]any) }
	huge := write("huge.json", `{"schema": "once.lesson-result/v2", "student": "`+strings.Repeat("x", 2<<20)+`"}`)
	escName := "\x1b]0;pwned\x07\x1b[2J"
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"endless device", []string{"/dev/zero"}, "/dev/zero: is a device"},
		{"directory", []string{dir}, "is a directory"},
		{"missing", []string{filepath.Join(dir, "nope.json")}, "nope.json: no such file"},
		{"over 1 MiB", []string{huge}, "huge.json: larger than 1024 KiB"},
		{"not JSON", []string{write("text.json", "ada 38/38\n")}, "text.json: not a lesson result"},
		{"trailing data", []string{write("trail.json", string(adaData)+"garbage")}, "trail.json: not a lesson result: data after its JSON object"},
		{"a second object", []string{write("two.json", string(adaData)+string(adaData))}, "two.json: not a lesson result: data after its JSON object"},
		{"a score added", []string{editRecord(t, ada, filepath.Join(dir, "score.json"), func(m map[string]any) { m["right"] = 38 })},
			`score.json: not a lesson result: unknown field "right"`},
		{"a right answer added", []string{editRecord(t, ada, filepath.Join(dir, "answer.json"), func(m map[string]any) {
			answers(m)[0].(map[string]any)["answer"] = "a"
		})}, `answer.json: not a lesson result: unknown field "answer"`},
		{"v1 schema", []string{editRecord(t, ada, filepath.Join(dir, "v1.json"), func(m map[string]any) { m["schema"] = "once.lesson-result/v1" })},
			`v1.json: schema "once.lesson-result/v1": want once.lesson-result/v2`},
		{"a question twice", []string{editRecord(t, ada, filepath.Join(dir, "dup.json"), func(m map[string]any) {
			a := answers(m)
			a[1] = a[0]
		})}, "dup.json: answer 2: double-billing#1 answered twice"},
		{"a question 50 times", []string{editRecord(t, ada, filepath.Join(dir, "dup50.json"), func(m map[string]any) {
			var a []any
			for range 50 {
				a = append(a, answers(m)[0])
			}
			m["answers"] = a
		})}, "dup50.json: answer 2: double-billing#1 answered twice"},
		{"a path as a step", []string{editRecord(t, ada, filepath.Join(dir, "path.json"), func(m map[string]any) {
			answers(m)[0].(map[string]any)["step"] = "../../etc/passwd"
		})}, `path.json: answer 1: step "../../etc/passwd": not a step of the course`},
		{"question -5", []string{editRecord(t, ada, filepath.Join(dir, "neg.json"), func(m map[string]any) {
			answers(m)[0].(map[string]any)["n"] = -5
		})}, "neg.json: answer 1: double-billing question -5: want 1..3"},
		{"a letter out of range", []string{editRecord(t, ada, filepath.Join(dir, "letter.json"), func(m map[string]any) {
			answers(m)[0].(map[string]any)["given"] = "z"
		})}, `letter.json: double-billing#1: given "z": want a letter a-`},
		{"half a step", []string{editRecord(t, ada, filepath.Join(dir, "half.json"), func(m map[string]any) { m["answers"] = answers(m)[:2] })},
			"half.json: step double-billing: 2 of its 3 questions answered"},
		{"the same file twice", []string{ada, ada}, "ada.json: given twice (also as "},
		{"the same file by another path", []string{ada, filepath.Join(dir, ".", "..", filepath.Base(dir), "ada.json")}, "given twice"},
		{"the same student twice", []string{ada, write("ada-copy.json", string(adaData))}, "ada-copy.json: student ada: a second result"},
		{"a classmate's file renamed", []string{editRecord(t, bogdan, filepath.Join(dir, "renamed.json"), func(m map[string]any) { m["student"] = "ada" })},
			"renamed.json: student ada: the token is not the one this class key issues to that name"},
		{"a name never issued", []string{editRecord(t, ada, filepath.Join(dir, "mallory.json"), func(m map[string]any) { m["student"] = "mallory" })},
			"mallory.json: student mallory: the token is not the one"},
		{"a token of another class", []string{editRecord(t, ada, filepath.Join(dir, "other.json"), func(m map[string]any) {
			m["token"] = course.Token("another-class-key-0123456789", "ada")
		})}, "other.json: student ada: the token is not the one"},
		{"a mistyped token", []string{editRecord(t, ada, filepath.Join(dir, "typo.json"), func(m map[string]any) {
			m["token"] = "0000-0000-0000-0000"
		})}, "typo.json: student ada: the token is not the one"},
		{"a practice result", []string{editRecord(t, ada, filepath.Join(dir, "practice.json"), func(m map[string]any) { m["token"] = "" })},
			"practice.json: student ada: a practice result (no token)"},
		{"another course version", []string{editRecord(t, ada, filepath.Join(dir, "version.json"), func(m map[string]any) { m["course"] = "course-0000000000000000" })},
			`version.json: course "course-0000000000000000": this once grades course-`},
		{"escape sequences in a name", []string{editRecord(t, ada, filepath.Join(dir, "esc.json"), func(m map[string]any) { m["student"] = escName })},
			`esc.json: student: \x1b]0;pwned\a\x1b[2J: a name with a control character`},
		{"an empty name", []string{editRecord(t, ada, filepath.Join(dir, "empty.json"), func(m map[string]any) { m["student"] = " " })},
			"empty.json: student: an empty name"},
		{"escape sequences in a file name", []string{write("esc\x1b[2J.json", "{")}, `esc\x1b[2J.json: not a lesson result`},
		{"escape sequences in a step", []string{editRecord(t, ada, filepath.Join(dir, "escstep.json"), func(m map[string]any) {
			answers(m)[0].(map[string]any)["step"] = "\x1b[31mred"
		})}, `escstep.json: answer 1: step "\x1b[31mred": not a step of the course`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := grade(c.files...)
			if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("grade %s: exit %d, stdout %.200q, stderr %.300q; want exit 2, nothing on stdout and one line with %q", c.name, code, stdout, stderr, c.want)
			}
			if strings.ContainsAny(stderr, "\x1b\x07") {
				t.Errorf("grade %s: a raw control character on stderr: %q", c.name, stderr)
			}
		})
	}
	// The class key: needed, and long enough.
	oneLine(t, "grade needs the class key", "lesson", "grade", ada)
	oneLine(t, "--class-key: a key of 5 bytes: want at least 16", "lesson", "grade", "--class-key", "short", ada)
	t.Setenv(course.ClassKeyEnv, testClassKey)
	if code, stdout, stderr := executeWithInput([]string{"lesson", "grade", ada}, ""); code != exitOK || !strings.Contains(stdout, "ada ") {
		t.Errorf("grade with %s: exit %d: %s", course.ClassKeyEnv, code, stderr)
	}
}

// A forged file — every given answer changed to the right one, a score
// and per-question verdicts added — grades as its given answers deserve:
// the verdicts are refused as unknown fields, and the answers are scored
// against the runs grade recomputes from the name and the class key, so
// editing the letters is answering the quiz, no more.
func TestLessonGradeRecomputes(t *testing.T) {
	dir := t.TempDir()
	out, file := quizResult(t, dir, "ada", "1,3", strings.Repeat("a\n", 10))
	right := strings.Fields(rightAnswers(t, "ada", "1,3"))
	score := regexp.MustCompile(`Score: (\d+) of (\d+) predictions right\.\s*Answers written`).FindStringSubmatch(out)
	n := strconv.Itoa(len(right))
	if score == nil || score[2] != n {
		t.Fatalf("no final score in the transcript, or not of its %d questions:\n%s", len(right), out)
	}
	code, stdout, stderr := grade(file)
	if code != exitOK || !strings.Contains(stdout, fmt.Sprintf("ada      %s/%s", score[1], score[2])) {
		t.Fatalf("grade of an honest file: exit %d, %s%s; want ada %s/%s", code, stdout, stderr, score[1], score[2])
	}
	// Every letter edited: to the right ones, then to wrong ones.
	forged := editRecord(t, file, filepath.Join(dir, "forged.json"), func(m map[string]any) {
		for i, a := range m["answers"].([]any) {
			a.(map[string]any)["given"] = right[i]
		}
	})
	if code, stdout, stderr := grade(forged); code != exitOK || !strings.Contains(stdout, "ada      "+n+"/"+n) {
		t.Errorf("every letter edited to the right one: exit %d, %s%s; want %s/%s (what those answers deserve)", code, stdout, stderr, n, n)
	}
	wrong := editRecord(t, file, filepath.Join(dir, "wrong.json"), func(m map[string]any) {
		for i, a := range m["answers"].([]any) {
			a.(map[string]any)["given"] = map[bool]string{true: "b", false: "a"}[right[i] == "a"]
		}
	})
	if code, stdout, stderr := grade(wrong); code != exitOK || !strings.Contains(stdout, "ada      0/"+n) {
		t.Errorf("every letter edited to a wrong one: exit %d, %s%s; want 0/%s", code, stdout, stderr, n)
	}
	// A score and verdicts added on top: refused, never believed.
	for _, field := range []string{"right", "score", "asked"} {
		f := editRecord(t, forged, filepath.Join(dir, field+".json"), func(m map[string]any) { m[field] = 0 })
		if code, _, stderr := grade(f); code != exitUsage || !strings.Contains(stderr, `unknown field "`+field+`"`) {
			t.Errorf("a %q field: exit %d, %s", field, code, stderr)
		}
	}
	f := editRecord(t, wrong, filepath.Join(dir, "verdicts.json"), func(m map[string]any) {
		for _, a := range m["answers"].([]any) {
			a.(map[string]any)["right"] = true
		}
	})
	if code, _, stderr := grade(f); code != exitUsage || !strings.Contains(stderr, `unknown field "right"`) {
		t.Errorf("per-question verdicts: exit %d, %s", code, stderr)
	}
}

// The result file holds the name, the token, the course version and the
// letters given — no seed, no right answer, no score: its keys are
// exactly those, and neither the student's seeds (the transcript names
// them) nor the right letters' keys appear in it.
func TestLessonResultHoldsNoAnswer(t *testing.T) {
	dir := t.TempDir()
	out, file := quizResult(t, dir, "ada", "1,2,3", strings.Repeat("b\n", 20))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(text, -1) {
		keys[m[1]] = true
	}
	for k := range keys {
		switch k {
		case "schema", "student", "token", "course", "answers", "step", "n", "given":
		default:
			t.Errorf("the result file has a field %q:\n%s", k, text)
		}
	}
	for _, word := range []string{"seed", "answer_key", "right", "asked", "score", `"answer"`} {
		if strings.Contains(text, word) {
			t.Errorf("the result file contains %q:\n%s", word, text)
		}
	}
	seeds := regexp.MustCompile(`seed (\d+) — every command`).FindAllStringSubmatch(out, -1)
	if len(seeds) != 3 {
		t.Fatalf("%d seed lines in the transcript, want 3", len(seeds))
	}
	for _, s := range seeds {
		if strings.Contains(text, s[1]) {
			t.Errorf("the result file contains the seed %s:\n%s", s[1], text)
		}
	}
}

// Tokens: one per name, from the class key; the student's seeds derive
// from the token, so the same name gets other runs under another key, and
// practice (no token) other runs again.
func TestLessonTokens(t *testing.T) {
	t.Setenv(course.ClassKeyEnv, testClassKey)
	code, stdout, stderr := executeWithInput([]string{"lesson", "tokens"}, "ada\n\n# a comment\n  bogdan  \nȘtefan\n")
	if code != exitOK {
		t.Fatalf("tokens: exit %d: %s", code, stderr)
	}
	for _, n := range []string{"ada", "bogdan", "Ștefan"} {
		if !strings.Contains(stdout, n+"\t"+course.Token(testClassKey, n)+"\n") {
			t.Errorf("tokens: no line for %s:\n%s", n, stdout)
		}
	}
	if !strings.HasPrefix(stdout, "# once lesson tokens · course-") || strings.Count(stdout, "\n") != 4 {
		t.Errorf("tokens: want a version line and three names:\n%s", stdout)
	}
	for _, c := range []struct{ in, want string }{
		{"ada\nbob\nada\n", "names line 3: ada: already on line 1"},
		{"ada\x1b[2J\n", `names line 1: ada\x1b[2J: a name with a control character`},
		{"", "names: none on standard input"},
	} {
		code, stdout, stderr := executeWithInput([]string{"lesson", "tokens"}, c.in)
		if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("tokens < %q: exit %d, stdout %q, stderr %q; want %q", c.in, code, stdout, stderr, c.want)
		}
	}
	t.Setenv(course.ClassKeyEnv, "")
	code, _, stderr = executeWithInput([]string{"lesson", "tokens"}, "ada\n")
	if code != exitUsage || !strings.Contains(stderr, "tokens needs the class key") {
		t.Errorf("tokens without a key: exit %d, %s", code, stderr)
	}

	seedOf := func(args ...string) string {
		_, out, stderr := executeWithInput(append([]string{"lesson", "--plain", "--steps", "1"}, args...), "")
		m := regexp.MustCompile(`seed (\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("lesson %v: no seed line: %s%s", args, out, stderr)
		}
		return m[1]
	}
	issued := seedOf("--student", "ada", "--token", course.Token(testClassKey, "ada"))
	other := seedOf("--student", "ada", "--token", course.Token("another-class-key-0123456789", "ada"))
	practice := seedOf("--student", "ada")
	if issued == other || issued == practice {
		t.Errorf("ada's seed for step 1: %s issued, %s under another key, %s in practice: want the key to decide it", issued, other, practice)
	}
	if again := seedOf("--student", " ada ", "--token", strings.ToUpper(strings.ReplaceAll(course.Token(testClassKey, "ada"), "-", " "))); again != issued {
		t.Errorf("the token typed in capitals with spaces: seed %s, want %s", again, issued)
	}
}

// The quiz's own refusals: a token without a name, a mistyped token, the
// class key given to the quiz; practice says it is practice.
func TestLessonTokenFlags(t *testing.T) {
	tok := course.Token(testClassKey, "ada")
	typo := []byte(tok)
	typo[0] = map[bool]byte{true: '1', false: '0'}[typo[0] == '0']
	oneLine(t, "--token: only with --student NAME", "lesson", "--plain", "--token", tok)
	oneLine(t, "--token: not a token the instructor gave (its check character is wrong)", "lesson", "--plain", "--student", "ada", "--token", string(typo))
	oneLine(t, "--token: a token has 16 letters and digits, this one 3", "lesson", "--plain", "--student", "ada", "--token", "abc")
	oneLine(t, "--force, --slides and --class-key: only with --out DIR", "lesson", "--plain", "--class-key", testClassKey)
	oneLine(t, "--slides (they reveal the answers) needs the class key", "lesson", "--out", filepath.Join(t.TempDir(), "p"), "--slides")
	_, out, _ := executeWithInput([]string{"lesson", "--plain", "--steps", "3", "--student", "ada"}, "a\n")
	if !strings.HasPrefix(out, "Practice: seeds from your name alone") {
		t.Errorf("practice does not say so first:\n%.300s", out)
	}
}

// Without --student, the line quiz prints the seed and the commands to
// run before the first question, so that the questions can be answered
// from the runs.
func TestLessonPlainCommandsFirst(t *testing.T) {
	_, out, _ := executeWithInput([]string{"lesson", "--plain", "--steps", "1"}, "a\na\na\na\n")
	seed, cmd, q := strings.Index(out, "The course's own runs: seed "), strings.Index(out, "  $ once run double-billing"), strings.Index(out, "Question 1.")
	if seed < 0 || cmd < 0 || q < 0 || !(seed < cmd && cmd < q) {
		t.Errorf("seed at %d, command at %d, first question at %d: want the seed, then the command, then the question:\n%.2000s", seed, cmd, q, out)
	}
}

// --out writes the teacher's edition only with the class key.
func TestLessonPackTeacherNeedsKey(t *testing.T) {
	for _, key := range []string{"", testClassKey} {
		dir := filepath.Join(t.TempDir(), "pack")
		args := []string{"lesson", "--out", dir, "--steps", "3"}
		if key != "" {
			args = append(args, "--class-key", key)
		}
		if code, _, stderr := executeWithInput(args, ""); code != exitOK {
			t.Fatalf("lesson --out (key %q): exit %d: %s", key, code, stderr)
		}
		_, err := os.Stat(filepath.Join(dir, "teacher"))
		index, _ := os.ReadFile(filepath.Join(dir, "index.md"))
		if teacher := err == nil; teacher != (key != "") || strings.Contains(string(index), "teacher/") != teacher {
			t.Errorf("lesson --out with key %q: teacher/ written %v, index links it %v", key, teacher, strings.Contains(string(index), "teacher/"))
		}
		if _, err := os.Stat(filepath.Join(dir, "student", "03-two-generals.md")); err != nil {
			t.Errorf("lesson --out with key %q: no student edition: %v", key, err)
		}
	}
}

// Leaving a step out never raises a ratio when grade knows the steps given
// out: a result of steps 1 and 3, all right, with step 3's answers deleted
// grades 3/3 on its own but 3/6 with --steps 1,3 (step 3's questions
// asked and unanswered, marked -); the whole result is 6/6 either way.
func TestLessonGradeRequiredSteps(t *testing.T) {
	dir := t.TempDir()
	right := rightAnswers(t, "ada", "1,3")
	_, file := quizResult(t, dir, "ada", "1,3", right)
	n := len(strings.Fields(right))
	first := ""
	cut := editRecord(t, file, filepath.Join(dir, "cut.json"), func(m map[string]any) {
		var kept []any
		for _, a := range m["answers"].([]any) {
			step := a.(map[string]any)["step"].(string)
			if first == "" {
				first = step
			}
			if step == first {
				kept = append(kept, a)
			}
		}
		m["answers"] = kept
	})
	half := strconv.Itoa(n / 2)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{cut}, "ada      " + half + "/" + half},
		{[]string{"--steps", "1,3", cut}, "ada      " + half + "/" + strconv.Itoa(n) + " "},
		{[]string{"--steps", "1,3", file}, "ada      " + strconv.Itoa(n) + "/" + strconv.Itoa(n) + " "},
	} {
		code, stdout, stderr := grade(c.args...)
		if code != exitOK || !strings.Contains(stdout, c.want) {
			t.Errorf("grade %q: exit %d, %s%s; want %q", c.args, code, stdout, stderr, c.want)
		}
		if len(c.args) == 3 && c.args[2] == cut && !strings.Contains(stdout, strings.Repeat("-", n/2)) {
			t.Errorf("grade %q: step 3 not marked unanswered:\n%s", c.args, stdout)
		}
	}
	if code, _, stderr := grade("--steps", "99", file); code != exitUsage || !strings.Contains(stderr, "--steps") {
		t.Errorf("grade --steps 99: exit %d, %s; want a refusal naming --steps", code, stderr)
	}
}
