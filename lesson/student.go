package lesson

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oncesim/once/sim"
)

// seedSpace is the range a student's first candidate seed is drawn from
// (1..seedSpace); seedTries bounds the search for one whose rows show the
// step's claims.
const (
	seedSpace = 100_000
	seedTries = 100
)

// StudentSeed is the first candidate seed of a student for a step:
// hash(name, step) in 1..seedSpace. Names are compared as given, after
// trimming spaces.
func StudentSeed(name, step string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(name)))
	h.Write([]byte{0})
	h.Write([]byte(step))
	return h.Sum64()%seedSpace + 1
}

// ForStudent is the course with every step's runs on the student's seed
// for that step: the first seed at or after StudentSeed(name, step) whose
// rows still show every claim of the step (the broken row fails, the
// fixed row holds) and answer every question of the sheet, so every
// student sees the lesson, on a run of their own, with answers of their
// own. The sheet is drawn from the step's bank by the first candidate
// seed (see Step.draw): neighbours get different questions.
//
// Seeds from the name alone are practice: anyone can compute them, so
// grade refuses their results (see ForIssued for a class's seeds).
func (c *Course) ForStudent(name string) (*Course, error) {
	return c.forStudent(name, "")
}

// ForIssued is the course on the seeds of the student called name who
// holds token, issued by the instructor (Token): as ForStudent, but every
// step's first candidate seed derives from the token (an HMAC of the name
// under the class key), so that only its holder, and the instructor who
// holds the key, can compute the runs and their answers. token is checked
// for its form only (ParseToken); grade checks it against the key.
func (c *Course) ForIssued(name, token string) (*Course, error) {
	t, err := ParseToken(token)
	if err != nil {
		return nil, fmt.Errorf("lesson: --token: %w", err)
	}
	return c.forStudent(name, t)
}

func (c *Course) forStudent(name, token string) (*Course, error) {
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("lesson: --student: %w", err)
	}
	out := &Course{Steps: make([]Step, len(c.Steps)), TrackName: c.TrackName}
	for i := range c.Steps {
		s, err := c.Steps[i].forStudent(name, token)
		if err != nil {
			return nil, err
		}
		out.Steps[i] = *s
	}
	return out, nil
}

// StepForStudent is step i of the course on the student's seed (see
// ForStudent): the lesson derives one step at a time.
func (c *Course) StepForStudent(i int, name string) (*Step, error) {
	return c.Steps[i].forStudent(name, "")
}

// StepForIssued is step i of the course on the seeds of the issued
// student (see ForIssued), derived alone: a class server builds one
// student's current step, not the whole course.
func (c *Course) StepForIssued(i int, name, token string) (*Step, error) {
	t, err := ParseToken(token)
	if err != nil {
		return nil, fmt.Errorf("lesson: token: %w", err)
	}
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("lesson: student: %w", err)
	}
	return c.Steps[i].forStudent(name, t)
}

// maxName is the longest student name accepted, in bytes.
const maxName = 200

// CheckName accepts a student's name: not empty, at most maxName bytes,
// valid UTF-8 without control characters (a name reaches the
// instructor's terminal).
func CheckName(name string) error {
	n := StudentName(name)
	switch {
	case n == "":
		return fmt.Errorf("an empty name")
	case len(n) > maxName:
		return fmt.Errorf("a name of %d bytes: want at most %d", len(n), maxName)
	case !utf8.ValidString(n):
		return fmt.Errorf("%s: not valid UTF-8", Escape(n))
	}
	for _, r := range n {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s: a name with a control character", Escape(n))
		}
	}
	return nil
}

// Escape is s safe to print on a terminal: control characters, invalid
// UTF-8 and the other unprintable runes as Go escapes (\x1b, \u200b),
// every printable rune of any script kept ("Ștefan", "Юлия").
func Escape(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case r == '\\':
			b.WriteString("\\\\")
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[size:]
	}
	return b.String()
}

func (s *Step) forStudent(name, token string) (*Step, error) {
	start := StudentSeed(name, s.ID)
	if token != "" {
		start = tokenSeed(token, s.ID)
	}
	sheet := s.draw(start)
	for seed := start; seed < start+seedTries; seed++ {
		t := s.withSeed(seed, sheet)
		ok, err := t.ShowsClaims()
		if err != nil {
			return nil, err
		}
		if ok {
			ok, err = t.answerable()
		}
		if err != nil {
			return nil, err
		}
		if ok {
			t.Student, t.Token = StudentName(name), token
			return t, nil
		}
	}
	return nil, fmt.Errorf("lesson: step %s: no seed in %d..%d shows its claims for %q", s.ID, start, start+seedTries-1, name)
}

// withSeed is a copy of s whose runs all use seed, asking sheet.
func (s *Step) withSeed(seed uint64, sheet []Question) *Step {
	t := *s
	t.Runs = make([]RunSpec, len(s.Runs))
	for i, r := range s.Runs {
		r.Seed = seed
		t.Runs[i] = r
	}
	t.Questions = append([]Question(nil), sheet...)
	return &t
}

// answerable says whether every question of the step's sheet has its one
// answer on the step's seed: a run where no operation was charged twice
// has no cause of a second charge to ask about.
func (s *Step) answerable() (bool, error) {
	results, err := ExecuteStep(s)
	if err != nil {
		return false, err
	}
	for i := range s.Questions {
		q := &s.Questions[i]
		if err := q.prepare(); err != nil {
			return false, err
		}
		if _, err := q.Answer(results); err != nil {
			return false, nil
		}
	}
	return true, nil
}

// ShowsClaims runs the step and says whether every row it claims holds
// or fails does.
func (s *Step) ShowsClaims() (bool, error) {
	for i := range s.Runs {
		r := &s.Runs[i]
		if len(r.Claims) == 0 {
			continue
		}
		res, err := Execute(r)
		if err != nil {
			return false, err
		}
		for a, c := range r.Claims {
			sem, _ := sim.ParseSemantics(a)
			run := res.Of(sem)
			if run == nil || !shows(run.Outcome, c) {
				return false, nil
			}
		}
	}
	return true, nil
}

// shows says whether a row shows claim c.
func shows(o *sim.Outcome, c string) bool {
	switch c {
	case ClaimHolds:
		return RowHolds(o)
	case ClaimViolated:
		return RowViolated(o)
	case ClaimLoses:
		return Count(o, ClassNone) > 0
	}
	return !RowHolds(o)
}
