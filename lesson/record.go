package lesson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// RecordSchema names the format of a result file (`once lesson --result`).
// v2 holds the given answers only: no seed, no right answer, no score —
// grade recomputes them.
const RecordSchema = "once.lesson-result/v2"

// MaxRecord is the largest result file grade reads, in bytes: a full
// course's answers take a few KiB.
const MaxRecord = 1 << 20

// A Record is what a student's line quiz leaves for grading, as
// `once lesson --plain --student NAME --token T --result FILE` writes it:
// who (the name and the instructor's token), on which course (Version),
// and the answer given to each question revealed. Nothing in it is
// trusted: grade recomputes the student's seeds from the name and the
// class key, and the right answers from the runs.
type Record struct {
	Schema  string  `json:"schema"`
	Student string  `json:"student"`
	Token   string  `json:"token"`  // "" in practice (--student without --token): grade refuses it
	Course  string  `json:"course"` // Version()
	Answers []Given `json:"answers"`
}

// A Given is the answer given to one question: the step (its id), the
// question's number within it (1-based) and the letter given, "" when no
// valid answer was.
type Given struct {
	Step   string `json:"step"`
	N      int    `json:"n"`
	Letter string `json:"given"`
}

// ID names the question across students: "double-billing#2".
func (g *Given) ID() string { return fmt.Sprintf("%s#%d", g.Step, g.N) }

// ParseRecord reads a result file's JSON strictly: one object of the
// schema, no unknown field (a v1 file's seeds, answers and scores
// included), nothing after it. It checks the form only; Grade checks the
// rest against the course.
func ParseRecord(data []byte) (*Record, error) {
	if len(data) > MaxRecord {
		return nil, fmt.Errorf("larger than %d KiB: not a lesson result", MaxRecord>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a lesson result: %s", jsonReason(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("not a lesson result: data after its JSON object (at byte %d)", dec.InputOffset())
	}
	if r.Schema != RecordSchema {
		return nil, fmt.Errorf("schema %q: want %s", Escape(r.Schema), RecordSchema)
	}
	return &r, nil
}

// jsonReason is a decoding error without the package's prefix and with
// whatever it quotes from the file escaped.
func jsonReason(err error) string {
	return Escape(strings.TrimPrefix(err.Error(), "json: "))
}

// A Graded is one student's result as grade recomputed it.
type Graded struct {
	Student string
	Right   int
	Answers []GradedAnswer // in the course's order
}

// A GradedAnswer is one question's verdict: the letter given and whether
// it is the right one for this student's run.
type GradedAnswer struct {
	ID     string // "double-billing#2"
	Letter string // "" when none was valid
	Right  bool
}

// A Grader grades result files of one course under one class key: every
// answer recomputed, never read from the file. It remembers the students
// it graded, so that one student's result is counted once.
type Grader struct {
	course  *Course
	key     string
	version string
	seen    map[string]bool
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
		return nil, fmt.Errorf("course %q: this once grades %s (the result was answered on another version of the course or of once)", Escape(r.Course), g.version)
	}
	if g.seen[name] {
		return nil, fmt.Errorf("student %s: a second result (each student is graded once)", Escape(name))
	}
	byStep := map[string][]*Given{}
	for i := range r.Answers {
		a := &r.Answers[i]
		s := g.course.Step(a.Step)
		if s == nil {
			return nil, fmt.Errorf("answer %d: step %q: not a step of the course", i+1, Escape(a.Step))
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
		if len(given) == 0 {
			continue
		}
		s, err := g.course.Steps[i].forStudent(name, token)
		if err != nil {
			return nil, err
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
			ga := GradedAnswer{ID: a.ID(), Letter: a.Letter}
			switch {
			case a.Letter == "":
			case len(a.Letter) == 1 && a.Letter[0] >= 'a' && int(a.Letter[0]-'a') < n:
				ga.Right = int(a.Letter[0]-'a') == answer
			default:
				return nil, fmt.Errorf("%s: given %q: want a letter a-%c or \"\"", a.ID(), Escape(a.Letter), 'a'+n-1)
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
	ID           string // "double-billing#2"
	Right, Asked int
}

// Rates are the per-question success rates over graded results, in the
// course's order of first appearance.
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
