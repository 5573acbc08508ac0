package lesson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
		return nil, fmt.Errorf("schema \"%s\": want %s", Escape(r.Schema), RecordSchema)
	}
	return &r, nil
}

// jsonReason is a decoding error without the package's prefix and with
// whatever it quotes from the file escaped.
func jsonReason(err error) string {
	return Escape(strings.TrimPrefix(err.Error(), "json: "))
}
