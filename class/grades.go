package class

import (
	"slices"
	"strings"
	"sync"

	"github.com/oncesim/once/lesson"
)

// A questionTally is how the class answered one question of the bank in
// one step (sheets differ: each student is asked some of the bank).
type questionTally struct {
	ID        string // the bank's question: "double-billing/breaks-alo"
	Text      string // as one student's sheet words it
	Mechanism bool
	Asked     int // students whose sheet has it
	Answered  int
	Right     int
	Wrong     []choiceCount // the wrong answers chosen, most chosen first
}

// A choiceCount is one wrong answer and how many chose it.
type choiceCount struct {
	Label string
	N     int
}

// tally is how the class answered step i so far: per question of the
// bank, in the order the sheets ask them. Each student's right answer
// comes from their own run (the view the server built for them).
func (cl *Class) tally(i int) ([]questionTally, error) {
	students, err := cl.st.students()
	if err != nil {
		return nil, err
	}
	answers, err := cl.st.stepAnswers(cl.course.Steps[i].ID)
	if err != nil {
		return nil, err
	}
	var out []questionTally
	index := map[string]int{}
	for _, s := range students {
		v, err := cl.views.get(cl, s.Name, i)
		if err != nil {
			return nil, err
		}
		for j, q := range v.view.Questions {
			k, ok := index[q.ID]
			if !ok {
				k = len(out)
				index[q.ID] = k
				out = append(out, questionTally{ID: v.view.ID + "/" + q.ID, Text: q.Text, Mechanism: q.Mechanism})
			}
			t := &out[k]
			t.Asked++
			l, ok := answers[s.Name][j+1]
			if !ok {
				continue
			}
			t.Answered++
			g := int(l[0] - 'a')
			if g == q.Answer {
				t.Right++
				continue
			}
			label := q.Choices[g]
			found := false
			for w := range t.Wrong {
				if t.Wrong[w].Label == label {
					t.Wrong[w].N++
					found = true
				}
			}
			if !found {
				t.Wrong = append(t.Wrong, choiceCount{Label: label, N: 1})
			}
		}
	}
	for k := range out {
		w := out[k].Wrong
		for a := 1; a < len(w); a++ { // most chosen first, ties in order of first choice
			for b := a; b > 0 && w[b].N > w[b-1].N; b-- {
				w[b], w[b-1] = w[b-1], w[b]
			}
		}
	}
	return out, nil
}

// gradeCache keeps each student's grade of each revealed step: fixed once
// revealed (no answer is accepted after), so computed once.
type gradeCache struct {
	mu sync.Mutex
	m  map[viewKey][]lesson.GradedAnswer
}

// gradeStep is a student's grade of step i (revealed): per question of
// their sheet, the letter given ("" for none) and whether it is the right
// one for their run.
func (cl *Class) gradeStep(name string, i int) ([]lesson.GradedAnswer, error) {
	k := viewKey{name, i}
	cl.grades.mu.Lock()
	g, ok := cl.grades.m[k]
	cl.grades.mu.Unlock()
	if ok {
		return g, nil
	}
	v, err := cl.views.get(cl, name, i)
	if err != nil {
		return nil, err
	}
	letters, err := cl.st.answersOf(name, v.view.ID)
	if err != nil {
		return nil, err
	}
	for j, q := range v.view.Questions {
		l := letters[j+1]
		g = append(g, lesson.GradedAnswer{ID: v.view.ID + "/" + q.ID, Letter: l, Right: l != "" && int(l[0]-'a') == q.Answer})
	}
	cl.grades.mu.Lock()
	if cl.grades.m == nil {
		cl.grades.m = map[viewKey][]lesson.GradedAnswer{}
	}
	cl.grades.m[k] = g
	cl.grades.mu.Unlock()
	return g, nil
}

// revealedIndices are the course indices of the revealed steps, in the
// course's order (the order grade lists answers in).
func (cl *Class) revealedIndices() ([]int, error) {
	ids, err := cl.st.revealedSteps()
	if err != nil {
		return nil, err
	}
	var out []int
	for i, s := range cl.course.Steps {
		if slices.Contains(ids, s.ID) {
			out = append(out, i)
		}
	}
	return out, nil
}

// Graded are every student's results over the revealed steps, as `once
// lesson grade` would compute them from the exported result files: every
// question of every revealed step asked, the right answer of each
// student's own run.
func (cl *Class) Graded() ([]*lesson.Graded, error) {
	students, err := cl.st.students()
	if err != nil {
		return nil, err
	}
	steps, err := cl.revealedIndices()
	if err != nil {
		return nil, err
	}
	var out []*lesson.Graded
	for _, s := range students {
		g, err := cl.gradedOn(s.Name, steps)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// gradedOf is one student's result over the revealed steps.
func (cl *Class) gradedOf(name string) (*lesson.Graded, error) {
	steps, err := cl.revealedIndices()
	if err != nil {
		return nil, err
	}
	return cl.gradedOn(name, steps)
}

// gradedOn is one student's result over steps (course indices, revealed).
func (cl *Class) gradedOn(name string, steps []int) (*lesson.Graded, error) {
	g := &lesson.Graded{Student: name}
	for _, i := range steps {
		answers, err := cl.gradeStep(name, i)
		if err != nil {
			return nil, err
		}
		for _, a := range answers {
			if a.Right {
				g.Right++
			}
		}
		g.Answers = append(g.Answers, answers...)
	}
	return g, nil
}

// Records are every student's result file, as `once lesson --plain
// --student NAME --token T --result FILE` writes it: the name, the token
// the class key issues to it, the course version and the letter given to
// each question of every revealed step ("" when none was) — nothing grade
// would have to trust.
func (cl *Class) Records() ([]*lesson.Record, error) {
	graded, err := cl.Graded()
	if err != nil {
		return nil, err
	}
	var out []*lesson.Record
	for _, g := range graded {
		r := &lesson.Record{Schema: lesson.RecordSchema, Student: g.Student, Token: lesson.Token(cl.key, g.Student), Course: cl.version,
			Answers: []lesson.Given{}}
		n := map[string]int{}
		for _, a := range g.Answers {
			step, _, _ := strings.Cut(a.ID, "/")
			n[step]++
			r.Answers = append(r.Answers, lesson.Given{Step: step, N: n[step], Letter: a.Letter})
		}
		out = append(out, r)
	}
	return out, nil
}
