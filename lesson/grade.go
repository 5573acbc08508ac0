package lesson

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/oncesim/once/internal/fileio"
)

// A Graded is one student's result as grade recomputed it.
type Graded struct {
	Student string
	Right   int
	Answers []GradedAnswer // in the course's order
}

// A GradedAnswer is one question's verdict: the letter given and whether
// it is the right one for this student's run.
type GradedAnswer struct {
	ID     string // the bank's question: "double-billing/breaks-alo"
	Letter string // "" when none was valid
	Right  bool
}

// Mark is the answer as the grade tables write it: its letter, upper case
// when right, - when none was given.
func (a GradedAnswer) Mark() string {
	if a.Letter == "" {
		return "-"
	}
	if a.Right {
		return strings.ToUpper(a.Letter)
	}
	return a.Letter
}

// A Grader grades result files of one course under one class key: every
// answer recomputed, never read from the file. It remembers the students
// it graded, so that one student's result is counted once.
type Grader struct {
	course   *Course
	key      string
	version  string
	seen     map[string]bool
	required map[string]bool // step ids every result is graded on (Require)
}

// Require makes every result graded on the steps given (indexes into the
// course's steps, as Course.Select returns them): a step a result does not
// answer counts its questions as asked and unanswered, so that leaving a
// step out never raises a student's ratio. Other steps count only when
// answered.
func (g *Grader) Require(steps []int) {
	g.required = map[string]bool{}
	for _, i := range steps {
		g.required[g.course.Steps[i].ID] = true
	}
}

// NewGrader grades results of c (the course of this build) under the
// class key.
func NewGrader(c *Course, classKey string) (*Grader, error) {
	v, err := Version()
	if err != nil {
		return nil, err
	}
	return &Grader{course: c, key: classKey, version: v, seen: map[string]bool{}}, nil
}

// Grade checks r against the course and the class key and grades it: the
// name (issued: its token is the one the key gives it), the course
// version, every answer (a step of the course, a question of the step,
// each once, a letter among the question's choices, every question of a
// step it answers); then it runs the student's seeds — derived from the
// token the key gives the name — and scores each given letter against
// the answer computed from the run. The error is one line, without the
// file's name (the caller names it).
func (g *Grader) Grade(r *Record) (*Graded, error) {
	name := StudentName(r.Student)
	if err := CheckName(r.Student); err != nil {
		return nil, fmt.Errorf("student: %w", err)
	}
	if r.Token == "" {
		return nil, fmt.Errorf("student %s: a practice result (no token): grade takes results of --student NAME --token TOKEN", Escape(name))
	}
	if !ValidToken(g.key, name, r.Token) {
		return nil, fmt.Errorf("student %s: the token is not the one this class key issues to that name (another student's file, a changed name, or another class key)", Escape(name))
	}
	if r.Course != g.version {
		return nil, fmt.Errorf("course \"%s\": this once grades %s (the result was answered on another version of the course or of once)", Escape(r.Course), g.version)
	}
	if g.seen[name] {
		return nil, fmt.Errorf("student %s: a second result (each student is graded once)", Escape(name))
	}
	byStep := map[string][]*Given{}
	for i := range r.Answers {
		a := &r.Answers[i]
		s := g.course.Step(a.Step)
		if s == nil {
			return nil, fmt.Errorf("answer %d: step \"%s\": not a step of the course", i+1, Escape(a.Step))
		}
		if a.N < 1 || a.N > len(s.Questions) {
			return nil, fmt.Errorf("answer %d: %s question %d: want 1..%d", i+1, s.ID, a.N, len(s.Questions))
		}
		for _, b := range byStep[s.ID] {
			if b.N == a.N {
				return nil, fmt.Errorf("answer %d: %s answered twice", i+1, a.ID())
			}
		}
		byStep[s.ID] = append(byStep[s.ID], a)
	}
	token, _ := ParseToken(r.Token)
	out := &Graded{Student: name}
	for i := range g.course.Steps {
		given := byStep[g.course.Steps[i].ID]
		if len(given) == 0 && !g.required[g.course.Steps[i].ID] {
			continue
		}
		s, err := g.course.Steps[i].forStudent(name, token)
		if err != nil {
			return nil, err
		}
		if len(given) == 0 { // a required step left out: asked, unanswered
			for j := range s.Questions {
				out.Answers = append(out.Answers, GradedAnswer{ID: s.ID + "/" + s.Questions[j].ID})
			}
			continue
		}
		if len(given) != len(s.Questions) {
			return nil, fmt.Errorf("step %s: %d of its %d questions answered (a step's answers are recorded whole)", s.ID, len(given), len(s.Questions))
		}
		slices.SortFunc(given, func(a, b *Given) int { return a.N - b.N })
		results, err := ExecuteStep(s)
		if err != nil {
			return nil, err
		}
		for j, a := range given {
			q := &s.Questions[j]
			answer, err := q.Answer(results)
			if err != nil {
				return nil, err
			}
			n := len(q.ChoicesFor(results))
			ga := GradedAnswer{ID: s.ID + "/" + q.ID, Letter: a.Letter}
			switch {
			case a.Letter == "":
			case len(a.Letter) == 1 && a.Letter[0] >= 'a' && int(a.Letter[0]-'a') < n:
				ga.Right = int(a.Letter[0]-'a') == answer
			default:
				return nil, fmt.Errorf("%s: given \"%s\": want a letter a-%c or \"\"", a.ID(), Escape(a.Letter), 'a'+n-1)
			}
			if ga.Right {
				out.Right++
			}
			out.Answers = append(out.Answers, ga)
		}
	}
	g.seen[name] = true
	return out, nil
}

// A QuestionRate is how a class did on one question.
type QuestionRate struct {
	ID           string // the bank's question: "double-billing/breaks-alo"
	Right, Asked int
}

// Rates are the per-question success rates over graded results, by the
// bank's question (sheets differ: each student answers some of them), in
// the order of first appearance.
func Rates(graded []*Graded) []QuestionRate {
	var out []QuestionRate
	index := map[string]int{}
	for _, r := range graded {
		for _, a := range r.Answers {
			i, ok := index[a.ID]
			if !ok {
				i = len(out)
				index[a.ID] = i
				out = append(out, QuestionRate{ID: a.ID})
			}
			out[i].Asked++
			if a.Right {
				out[i].Right++
			}
		}
	}
	return out
}

// SortedByStudent returns graded results ordered by student name (stable).
func SortedByStudent(graded []*Graded) []*Graded {
	out := slices.Clone(graded)
	slices.SortStableFunc(out, func(a, b *Graded) int { return strings.Compare(a.Student, b.Student) })
	return out
}

// An InputError is an input the lesson refuses — a result file grade
// reads (File, as given: printed escaped), the names tokens reads, the
// class key — with the reason, one line: the user's mistake.
type InputError struct {
	File string // "" when the input is not a file
	Err  error
}

func (e *InputError) Error() string {
	if e.File == "" {
		return e.Err.Error()
	}
	return Escape(e.File) + ": " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// GradeFiles reads and grades result files under the class key (see
// Grader.Grade): each read through fileio.Read with the MaxRecord limit,
// a file given twice (the same file by any path) refused before it is
// read; steps are those every result is graded on (Grader.Require; none:
// each result on the steps it answers). The first refusal stops it (an
// *InputError): a roster is printed whole or not at all.
func GradeFiles(c *Course, classKey string, steps []int, paths []string) ([]*Graded, error) {
	g, err := NewGrader(c, classKey)
	if err != nil {
		return nil, err
	}
	g.Require(steps)
	var out []*Graded
	seen := make([]os.FileInfo, len(paths))
	for i, f := range paths {
		if seen[i], err = os.Stat(f); err == nil {
			for j := range i {
				if seen[j] != nil && os.SameFile(seen[j], seen[i]) {
					return nil, &InputError{f, fmt.Errorf("given twice (also as %s): each result is graded once", Escape(paths[j]))}
				}
			}
		}
		data, err := fileio.Read(f, MaxRecord)
		if err != nil {
			return nil, &InputError{f, err}
		}
		r, err := ParseRecord(data)
		if err != nil {
			return nil, &InputError{f, err}
		}
		gr, err := g.Grade(r)
		if err != nil {
			return nil, &InputError{f, errors.New(strings.TrimPrefix(err.Error(), "lesson: "))}
		}
		out = append(out, gr)
	}
	return out, nil
}

// maxNamesLine is the longest line of a names file read.
const maxNamesLine = 4096

// ReadNames reads a class's names for tokens: one a line, blank lines and
// lines starting with # skipped; a name given twice, one CheckName
// refuses, a line over 4 KiB or no name at all is an error naming the
// line.
func ReadNames(in io.Reader) ([]string, error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 256), maxNamesLine)
	var names []string
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		n := StudentName(sc.Text())
		if n == "" || strings.HasPrefix(n, "#") {
			continue
		}
		if err := CheckName(n); err != nil {
			return nil, fmt.Errorf("names line %d: %w", line, err)
		}
		if first, ok := seen[n]; ok {
			return nil, fmt.Errorf("names line %d: %s: already on line %d (two students need two names)", line, Escape(n), first)
		}
		seen[n] = line
		names = append(names, n)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("names: a line longer than %d bytes: one name a line", maxNamesLine)
	} else if err != nil {
		return nil, fmt.Errorf("names: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("names: none on standard input (one a line)")
	}
	return names, nil
}

// ForFlags is the course as `once lesson --student NAME --token T` asks
// for it: the issued student's seeds (ForIssued), practice (ForStudent)
// without a token, the course itself without a name. The errors are the
// user's (a token without a name, an empty name, a malformed token).
func (c *Course) ForFlags(student, token string) (out *Course, err error) {
	switch {
	case student == "" && token != "":
		return nil, fmt.Errorf("--token: only with --student NAME")
	case student == "":
		return c, nil
	case token != "":
		out, err = c.ForIssued(student, token)
	default:
		out, err = c.ForStudent(student)
	}
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "lesson: "))
	}
	return out, nil
}
