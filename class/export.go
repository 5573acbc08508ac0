package class

import (
	"archive/zip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/oncesim/once/lesson"
)

// WriteRosterCSV writes the class's roster as CSV: one row per student,
// in the order `once lesson grade` prints them (by name), with the
// columns of its roster — the name, the right answers, the questions
// asked, and the letters given in the course's order (upper case when
// right, - when none was given). A text cell that a spreadsheet would
// read as a formula (spreadsheetText) starts with an apostrophe.
func WriteRosterCSV(w io.Writer, graded []*lesson.Graded) error {
	c := csv.NewWriter(w)
	c.Write([]string{"student", "right", "asked", "answers"})
	for _, g := range lesson.SortedByStudent(graded) {
		c.Write([]string{spreadsheetText(g.Student), strconv.Itoa(g.Right), strconv.Itoa(len(g.Answers)), spreadsheetText(Letters(g))})
	}
	c.Flush()
	return c.Error()
}

// spreadsheetText is s as a CSV text cell that a spreadsheet shows as
// text: one that starts with = + - @, a tab or a carriage return is a
// formula to Excel and LibreOffice (a student who left the first question
// unanswered has letters "-AbC", read as minus a name: #NAME?), so it gets
// a leading apostrophe, the usual defence against CSV injection.
func spreadsheetText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// WriteQuestionsCSV writes how the class did on each question of the
// bank: its id, right answers, students asked (lesson.Rates).
func WriteQuestionsCSV(w io.Writer, graded []*lesson.Graded) error {
	c := csv.NewWriter(w)
	c.Write([]string{"question", "right", "asked"})
	for _, q := range lesson.Rates(lesson.SortedByStudent(graded)) {
		c.Write([]string{q.ID, strconv.Itoa(q.Right), strconv.Itoa(q.Asked)})
	}
	c.Flush()
	return c.Error()
}

// Letters are a student's answers as the roster of `once lesson grade`
// writes them: one letter per question, upper case when right, - when
// none was given.
func Letters(g *lesson.Graded) string {
	var b strings.Builder
	for _, a := range g.Answers {
		b.WriteString(a.Mark())
	}
	return b.String()
}

// WriteResultsZip writes every student's result file into a zip archive,
// one JSON file per student (NNN-name.json, NNN the order they joined),
// as `once lesson --result` writes one: `once lesson grade` reads them
// with the class key.
func WriteResultsZip(w io.Writer, records []*lesson.Record) error {
	z := zip.NewWriter(w)
	for i, r := range records {
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fmt.Errorf("class: export: %w", err)
		}
		f, err := z.Create(fmt.Sprintf("%03d-%s.json", i+1, fileSafe(r.Student)))
		if err != nil {
			return fmt.Errorf("class: export: %w", err)
		}
		if _, err := f.Write(append(data, '\n')); err != nil {
			return fmt.Errorf("class: export: %w", err)
		}
	}
	return z.Close()
}

// fileSafe is a name as part of a file name: letters and digits of any
// script kept, anything else an underscore, at most 40 runes.
func fileSafe(name string) string {
	var b strings.Builder
	for i, r := range []rune(name) {
		if i == 40 {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
