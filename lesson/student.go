package lesson

import (
	"fmt"
	"hash/fnv"
	"strings"

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
// fixed row holds), so every student sees the lesson, on a run of their
// own, with answers of their own.
func (c *Course) ForStudent(name string) (*Course, error) {
	if strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("lesson: --student: an empty name")
	}
	out := &Course{Steps: make([]Step, len(c.Steps))}
	for i := range c.Steps {
		s, err := c.Steps[i].forStudent(name)
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
	return c.Steps[i].forStudent(name)
}

func (s *Step) forStudent(name string) (*Step, error) {
	start := StudentSeed(name, s.ID)
	for seed := start; seed < start+seedTries; seed++ {
		t := s.withSeed(seed)
		ok, err := t.ShowsClaims()
		if err != nil {
			return nil, err
		}
		if ok {
			t.Student = strings.TrimSpace(name)
			return t, nil
		}
	}
	return nil, fmt.Errorf("lesson: step %s: no seed in %d..%d shows its claims for %q", s.ID, start, start+seedTries-1, name)
}

// withSeed is a copy of s whose runs all use seed.
func (s *Step) withSeed(seed uint64) *Step {
	t := *s
	t.Runs = make([]RunSpec, len(s.Runs))
	for i, r := range s.Runs {
		r.Seed = seed
		t.Runs[i] = r
	}
	t.Questions = append([]Question(nil), s.Questions...)
	return &t
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
	}
	return !RowHolds(o)
}
