package lessonview

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// maxAnswerTries is how many answers a question reads before an invalid
// one counts as wrong and the lesson goes on.
const maxAnswerTries = 3

// errEndOfInput stops the quiz when standard input ends.
var errEndOfInput = fmt.Errorf("lesson: end of input")

// maxAnswerLine is the longest answer line read (a longer one is an
// error, not a crash).
const maxAnswerLine = 4096

// Quiz is the line quiz: for each step the story, the predictions (one
// answer a line: a number or a letter), the runs, the results with a
// text trace and the why; the score at the end, or when the input ends.
// It returns the record of the answers revealed (see lesson.Record).
func Quiz(c *lesson.Course, steps []int, in io.Reader, out io.Writer) (*lesson.Record, error) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	answers := bufio.NewScanner(in)
	answers.Buffer(make([]byte, 0, 256), maxAnswerLine)
	rec := &lesson.Record{Schema: lesson.RecordSchema}
	if len(steps) > 0 && c.Steps[steps[0]].Student != "" && c.Steps[steps[0]].Token == "" {
		fmt.Fprintf(w, "%s\n", lang.T("lesson.practice")) // --student without --token
	}
	right, asked := 0, 0
	for _, i := range steps {
		v, err := Build(c, i)
		if err != nil {
			return nil, err
		}
		rec.Student, rec.Token = v.Student, c.Steps[i].Token
		r, a, err := plainStep(v, answers, w, rec)
		right, asked = right+r, asked+a
		if err == errEndOfInput {
			fmt.Fprintf(w, "\n%s\n", lang.T("lesson.eof"))
			break
		}
		if err != nil {
			return nil, err
		}
		if i == steps[len(steps)-1] {
			if c.TrackName == lesson.TrackCore && i == len(c.Steps)-1 {
				fmt.Fprintf(w, "\n%s\n", lang.T("lesson.together")) // the course text's last part
			}
			fmt.Fprintf(w, "\n%s\n", lang.T("lesson.done"))
		}
	}
	fmt.Fprintf(w, "%s\n", lang.Tf("lesson.score", map[string]any{"Right": right, "Asked": asked}))
	return rec, w.Flush()
}

// plainStep takes one step; it returns how many predictions were right of
// how many were revealed: a step cut short by the end of input scores
// nothing, its predictions never revealed.
func plainStep(v *StepView, answers *bufio.Scanner, w *bufio.Writer, rec *lesson.Record) (right, asked int, err error) {
	heading := lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total}) + " · " + v.Title
	fmt.Fprintf(w, "\n%s\n%s\n", heading, strings.Repeat("=", len([]rune(heading))))
	fmt.Fprintf(w, "%s\n", PaceLine(v))
	fmt.Fprintf(w, "\n%s\n", SeedLine(v))
	for _, s := range v.Stories {
		fmt.Fprintf(w, "\n%s — %s\n\n%s\n\n%s:\n%s\n", s.Scenario, s.Summary, s.Story, lang.T("lesson.watch"), s.Watch)
	}
	// The commands come first, on the student's own seed or the
	// course's: the evidence questions are answered from their output
	// (the mechanism questions before running anything).
	fmt.Fprintf(w, "\n%s\n", lang.T("lesson.run_first"))
	for _, r := range v.Runs {
		fmt.Fprintf(w, "  $ %s\n", r.Command)
	}
	fmt.Fprintf(w, "\n%s\n", lang.T("lesson.predict"))
	given := make([]int, len(v.Questions))
	for j, q := range v.Questions {
		fmt.Fprintf(w, "\n%s. %s\n", lang.Tf("lesson.question_n", map[string]any{"N": j + 1}), q.Text)
		for _, c := range EvidenceCommands(q) {
			fmt.Fprintf(w, "  $ %s\n", c)
		}
		for k, ch := range q.Choices {
			fmt.Fprintf(w, "  %c) %s\n", 'a'+k, ch)
		}
		g, err := readAnswer(answers, w, len(q.Choices))
		if err != nil {
			return 0, 0, err // predictions never revealed are not scored
		}
		given[j] = g
		asked++
	}
	fmt.Fprintf(w, "\n%s\n", lang.T("lesson.run"))
	for _, r := range v.Runs {
		fmt.Fprintf(w, "\n$ %s\n", r.Command)
		for _, l := range r.Lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if cuts := CutLines(v); len(cuts) > 0 {
		fmt.Fprintf(w, "\n%s\n", cuts[0])
		for _, l := range cuts[1:] {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintf(w, "\n%s\n", lang.T("lesson.reveal"))
	for j, q := range v.Questions {
		answer := fmt.Sprintf("%c) %s", 'a'+q.Answer, q.Choices[q.Answer])
		fmt.Fprintf(w, "\n%s. %s\n", lang.Tf("lesson.question_n", map[string]any{"N": j + 1}), q.Text)
		ra := lesson.Given{Step: v.ID, N: j + 1}
		if given[j] >= 0 {
			ra.Letter = string(rune('a' + given[j]))
		}
		rec.Answers = append(rec.Answers, ra)
		switch {
		case given[j] == q.Answer:
			right++
			fmt.Fprintf(w, "✓ %s\n", lang.Tf("lesson.right", map[string]any{"Answer": answer}))
		case given[j] < 0:
			fmt.Fprintf(w, "✗ %s\n", lang.Tf("lesson.unanswered", map[string]any{"Answer": answer}))
		default:
			fmt.Fprintf(w, "✗ %s\n", lang.Tf("lesson.wrong", map[string]any{"Answer": answer,
				"Given": fmt.Sprintf("%c) %s", 'a'+given[j], q.Choices[given[j]])}))
		}
		label := lang.T("lesson.trace")
		if q.Mechanism {
			label = lang.T("lesson.proof")
		}
		fmt.Fprintf(w, "%s\n%s", label, q.Diagram)
		fmt.Fprintf(w, "%s (%s): %s\n", lang.T("lesson.why"), q.Semantics, oneParagraph(q.Why))
	}
	fmt.Fprintf(w, "\n%s\n", lang.Tf("lesson.score", map[string]any{"Right": right, "Asked": asked}))
	return right, asked, w.Flush()
}

// EvidenceCommands are the commands whose output answers an evidence
// question, when they are not the step's runs (a search of explore, the
// trace a cause question quotes); none for a mechanism question, answered
// before any run.
func EvidenceCommands(q QuestionView) []string {
	if q.Mechanism || q.Ask != lesson.AskFaults && q.Ask != lesson.AskCut && q.Ask != lesson.AskCause {
		return nil
	}
	return q.Commands
}

// readAnswer asks for an answer among n choices until one is valid, at
// most maxAnswerTries times; -1 when none was. It returns errEndOfInput
// when the input ends first.
func readAnswer(answers *bufio.Scanner, w *bufio.Writer, n int) (int, error) {
	last := rune('a' + n - 1)
	for try := 0; try < maxAnswerTries; try++ {
		fmt.Fprint(w, lang.Tf("lesson.prompt", map[string]any{"First": "a", "Last": string(last)}))
		w.Flush()
		if !answers.Scan() {
			fmt.Fprintln(w)
			if err := answers.Err(); errors.Is(err, bufio.ErrTooLong) {
				return 0, fmt.Errorf("lesson: an answer line is longer than %d KiB: answer with a number or a letter, one a line", bufio.MaxScanTokenSize>>10)
			} else if err != nil {
				return 0, fmt.Errorf("lesson: reading answers: %w", err)
			}
			return 0, errEndOfInput
		}
		line := strings.TrimSpace(answers.Text())
		fmt.Fprintln(w, line) // echo, so a transcript read from a file shows the answers
		if k, ok := parseAnswer(line, n); ok {
			return k, nil
		}
		fmt.Fprintln(w, lang.Tf("lesson.invalid", map[string]any{"N": n, "Last": string(last)}))
	}
	fmt.Fprintln(w, lang.T("lesson.gave_up"))
	return -1, nil
}

// parseAnswer reads "2", "b" or "B" as the index of a choice among n.
func parseAnswer(s string, n int) (int, bool) {
	if k, err := strconv.Atoi(s); err == nil {
		return k - 1, k >= 1 && k <= n
	}
	r := []rune(strings.ToLower(s))
	if len(r) == 1 && r[0] >= 'a' && int(r[0]-'a') < n {
		return int(r[0] - 'a'), true
	}
	return 0, false
}

// SeedLine says whose seed a step runs and that its commands replay it:
// the student's (the name escaped: it may come from anywhere), or the
// course's own.
func SeedLine(v *StepView) string {
	if v.Student == "" {
		return lang.Tf("lesson.course_seed", map[string]any{"Seed": v.Seed})
	}
	return lang.Tf("lesson.student_seed", map[string]any{"Student": lesson.Escape(v.Student), "Seed": v.Seed})
}

// oneParagraph joins a text's lines into one: the why reads as a paragraph
// after its label.
func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteResult writes a quiz's record to path, atomically, with the
// course version (lesson.Version), and says so on out: the name, the
// token, the version and the letters given — nothing grade would have
// to trust. A path it cannot write is a *lesson.InputError.
func WriteResult(path string, rec *lesson.Record, out io.Writer) error {
	var err error
	if rec.Course, err = lesson.Version(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("lesson: --result: %w", err)
	}
	if err := fileio.WriteAtomic([]string{path}, [][]byte{append(data, '\n')}); err != nil {
		return &lesson.InputError{Err: fmt.Errorf("--result %w", err)}
	}
	_, err = fmt.Fprintf(out, "%s\n", lang.Tf("lesson.result_written", map[string]any{"File": path, "Version": rec.Course}))
	return err
}
