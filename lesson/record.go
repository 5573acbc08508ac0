package lesson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// RecordSchema names the format of a result file (`once lesson --result`).
const RecordSchema = "once.lesson-result/v1"

// A Record is one student's answers to the line quiz and the score, as
// `once lesson --plain --student NAME --result FILE` writes it.
type Record struct {
	Schema    string         `json:"schema"`
	Student   string         `json:"student"`
	Lang      string         `json:"lang"`
	Right     int            `json:"right"`
	Asked     int            `json:"asked"`
	Questions []RecordAnswer `json:"questions"`
}

// A RecordAnswer is one revealed prediction: which question (step and
// number, the same for every student), on which seed, the choice given
// and the right one (letters, and the choices' keys: "2", "op-3").
type RecordAnswer struct {
	Step      string `json:"step"`
	N         int    `json:"n"` // 1-based, within the step
	Seed      uint64 `json:"seed"`
	Given     string `json:"given"` // "" when no valid answer was given
	GivenKey  string `json:"given_key,omitempty"`
	Answer    string `json:"answer"`
	AnswerKey string `json:"answer_key"`
	Right     bool   `json:"right"`
}

// ID names the question across students: "double-billing#2".
func (a *RecordAnswer) ID() string { return fmt.Sprintf("%s#%d", a.Step, a.N) }

// ParseRecord reads a result file, checking that its counts agree with
// its answers.
func ParseRecord(data []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Record
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a lesson result: %w", err)
	}
	if r.Schema != RecordSchema {
		return nil, fmt.Errorf("schema %q: want %s", r.Schema, RecordSchema)
	}
	right := 0
	for _, a := range r.Questions {
		if a.Right {
			right++
		}
	}
	if r.Asked != len(r.Questions) || r.Right != right {
		return nil, fmt.Errorf("right %d of %d asked: the answers say %d of %d", r.Right, r.Asked, right, len(r.Questions))
	}
	return &r, nil
}

// A QuestionRate is how a class did on one question.
type QuestionRate struct {
	ID           string // "double-billing#2"
	Right, Asked int
}

// Rates are the per-question success rates over records, in the course's
// order of first appearance.
func Rates(records []*Record) []QuestionRate {
	var out []QuestionRate
	index := map[string]int{}
	for _, r := range records {
		for _, a := range r.Questions {
			id := a.ID()
			i, ok := index[id]
			if !ok {
				i = len(out)
				index[id] = i
				out = append(out, QuestionRate{ID: id})
			}
			out[i].Asked++
			if a.Right {
				out[i].Right++
			}
		}
	}
	return out
}

// SortedByStudent returns records ordered by student name (stable).
func SortedByStudent(records []*Record) []*Record {
	out := slices.Clone(records)
	slices.SortStableFunc(out, func(a, b *Record) int {
		switch {
		case a.Student < b.Student:
			return -1
		case a.Student > b.Student:
			return 1
		}
		return 0
	})
	return out
}
