// Package lesson is the guided lesson of the module as data: its steps in
// the course's order (course.yaml, the one source of truth), the catalog
// runs each step shows, and the prediction questions a student answers
// before the reveal.
//
// No answer is written down anywhere: every question's right choice is
// computed from the run it asks about (an operation's effect count, the
// semantics' promise, an invariant or a metric), so the lesson cannot
// disagree with the simulator. The texts (step titles, question wording)
// are message ids translated by report/lang; the story and the why come
// from each scenario's own lesson.
package lesson
