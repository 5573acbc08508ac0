package class

import (
	"slices"
	"sync"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
)

// A studentStep is one student's step, built: the view every page of the
// step shows (questions, choices, the right answers the server keeps)
// and the student edition's diagrams, which carry no outcome.
type studentStep struct {
	view     *lessonview.StepView
	diagrams []lessonview.Diagram
}

// viewCache keeps the students' steps built: a step's runs are computed
// once per student, whoever asks first (the student's page, an answer,
// the dashboard), and every later request reads them.
type viewCache struct {
	mu      sync.Mutex
	entries map[viewKey]*viewEntry
}

type viewKey struct {
	name string
	step int
}

type viewEntry struct {
	once sync.Once
	v    *studentStep
	err  error
}

// get is the student's step i (a course index), built on first use.
func (c *viewCache) get(cl *Class, name string, i int) (*studentStep, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[viewKey]*viewEntry{}
	}
	k := viewKey{name, i}
	e := c.entries[k]
	if e == nil {
		e = &viewEntry{}
		c.entries[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = cl.build(name, i) })
	return e.v, e.err
}

// forget drops the steps other than keep: a class moves on, and a
// revealed step's grades are recomputed when an export asks for them.
func (c *viewCache) forget(keep int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if k.step != keep {
			delete(c.entries, k)
		}
	}
}

// build runs step i on the student's seeds (lesson.Course.StepForIssued:
// the token the class key issues to the name) and renders it.
func (cl *Class) build(name string, i int) (*studentStep, error) {
	s, err := cl.course.StepForIssued(i, name, lesson.Token(cl.key, name))
	if err != nil {
		return nil, err
	}
	c := &lesson.Course{Steps: slices.Clone(cl.course.Steps)}
	c.Steps[i] = *s
	v, err := lessonview.Build(c, i)
	if err != nil {
		return nil, err
	}
	v.Number, v.Total = slices.Index(cl.steps, i)+1, len(cl.steps)
	d, err := lessonview.StepDiagrams(v, lessonview.Student)
	if err != nil {
		return nil, err
	}
	return &studentStep{view: v, diagrams: d}, nil
}
