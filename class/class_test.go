package class

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
)

// A class of three walks one step: predictions (the mechanism questions
// open, the evidence ones not yet), the run (the evidence questions open,
// the predictions closed), the reveal (nothing open, the right answers
// and the score shown); the first answer counts, a second one and a late
// one are refused; the dashboard counts what was answered and what was
// right; the CSV roster is what `once lesson grade` computes from the
// exported result files.
func TestClassWalksAStep(t *testing.T) {
	cl, srv := newTestClass(t, "", Options{})
	tb := teacher(t, cl, srv.URL)
	names := []string{"Ada", "Bogdan", "Юлия"}
	students := map[string]*browser{}
	for _, n := range names {
		students[n] = newBrowser(t, srv.URL)
		page := students[n].join(n, "")
		for _, other := range names {
			if other != n && strings.Contains(page, other) {
				t.Errorf("%s's page names %s", n, other)
			}
		}
	}
	step := "double-billing"
	// Each student answers right (Ada), wrong (Bogdan) or not at all (Юлия).
	pick := func(name string, q int) string {
		v := sheet(t, cl, name, step).view.Questions[q]
		if name == "Ada" {
			return string(rune('a' + v.Answer))
		}
		return string(rune('a' + (v.Answer+1)%len(v.Choices)))
	}
	answerPhase := func(mechanism bool) {
		for _, n := range names[:2] {
			for j, q := range sheet(t, cl, n, step).view.Questions {
				status, page := students[n].answer(step, j+1, pick(n, j))
				switch {
				case q.Mechanism == mechanism && status != http.StatusOK:
					t.Fatalf("%s question %d: %d, want it recorded\n%s", n, j+1, status, page)
				case q.Mechanism != mechanism && status != http.StatusConflict:
					t.Errorf("%s question %d (mechanism %v) in the wrong phase: %d, want 409", n, j+1, q.Mechanism, status)
				}
				if q.Mechanism == mechanism {
					if questionStates(page)[j+1] != "answered" {
						t.Errorf("%s question %d: state %q after answering", n, j+1, questionStates(page)[j+1])
					}
					// A second answer (another tab, a reload) is refused; the first stays.
					other := string(rune('a' + (int(pick(n, j)[0]-'a')+2)%len(q.Choices)))
					if status, _ := students[n].answer(step, j+1, other); status != http.StatusConflict {
						t.Errorf("%s question %d: a second answer: %d, want 409", n, j+1, status)
					}
				}
			}
		}
	}
	answerPhase(true)
	tb.advance(cl) // the run
	_, page := students["Ada"].get("/")
	if !strings.Contains(page, `/diagram/0`) {
		t.Errorf("the run phase shows no diagram of the student's run")
	}
	_, dash := tb.get("/teacher")
	if !strings.Contains(dash, `data-done="0"`) {
		t.Errorf("the dashboard counts students done with the evidence questions before any answered")
	}
	answerPhase(false)
	_, dash = tb.get("/teacher")
	if !strings.Contains(dash, "Answered every open question: 2 of 3 students.") {
		t.Errorf("the dashboard does not count two of three students done\n%s", dash)
	}
	if !strings.Contains(dash, `<td class="answered">2</td>`) {
		t.Errorf("the dashboard does not count two answers to a question\n%s", dash)
	}
	tb.advance(cl) // the reveal
	for _, n := range names {
		for j := range sheet(t, cl, n, step).view.Questions {
			if status, _ := students[n].answer(step, j+1, "a"); status != http.StatusConflict {
				t.Errorf("%s question %d after the reveal: %d, want 409", n, j+1, status)
			}
		}
	}
	_, page = students["Ada"].get("/")
	asked := len(sheet(t, cl, "Ada", step).view.Questions)
	if !strings.Contains(page, "This step: "+itoa(asked)+" of "+itoa(asked)+" right.") {
		t.Errorf("Ada answered every question right; her page says otherwise:\n%s", page)
	}
	_, page = students["Bogdan"].get("/")
	if !strings.Contains(page, "This step: 0 of "+itoa(asked)+" right.") || !strings.Contains(page, `class="wrong"`) {
		t.Errorf("Bogdan answered every question wrong; his page says otherwise")
	}
	_, dash = tb.get("/teacher")
	if !strings.Contains(dash, `<td class="score">`+itoa(asked)+"/"+itoa(asked)+`</td>`) {
		t.Errorf("the roster does not score Ada %d/%d\n%s", asked, asked, dash)
	}

	// The exports: the CSV roster is grade's roster of the result files.
	status, csvText := tb.get("/teacher/roster.csv")
	if status != http.StatusOK {
		t.Fatalf("roster.csv: %d", status)
	}
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	status, zipped := tb.get("/teacher/results.zip")
	if status != http.StatusOK {
		t.Fatalf("results.zip: %d", status)
	}
	records := unzipRecords(t, []byte(zipped))
	want := gradeRoster(t, records)
	if len(rows) != len(want)+1 {
		t.Fatalf("roster.csv has %d rows, grade %d", len(rows)-1, len(want))
	}
	for i, w := range want {
		w[3] = spreadsheetText(w[3]) // "---" (nothing answered) is quoted: a spreadsheet reads it as a formula
		if got := [4]string(rows[i+1]); got != w {
			t.Errorf("roster.csv row %d = %v, grade says %v", i+1, got, w)
		}
	}
	if want[0][0] != "Ada" || want[0][1] != itoa(asked) || want[2][0] != "Юлия" || want[2][3] != strings.Repeat("-", asked) {
		t.Errorf("grade's roster %v: want Ada all right and Юлия unanswered", want)
	}
	tb.advance(cl) // the next step: predictions again
	_, page = students["Ada"].get("/")
	if !strings.Contains(page, `data-phase="predict"`) || !strings.Contains(page, "two-generals") {
		t.Errorf("the class did not move on to the next step's predictions")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// unzipRecords reads the result files of an export.
func unzipRecords(t testing.TB, data []byte) []*lesson.Record {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []*lesson.Record
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		r, err := lesson.ParseRecord(body)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if bytes.Contains(body, []byte(`"seed"`)) || bytes.Contains(body, []byte(`"right"`)) {
			t.Errorf("%s holds more than the given answers", f.Name)
		}
		out = append(out, r)
	}
	return out
}
