package class

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/lesson"
)

// testKey is the class key of the tests' classes.
const testKey = "class-test-key-0123456789"

// testSteps are the steps the tests teach: two, so that a class moves on.
const testSteps = "double-billing,two-generals"

// newTestClass opens a class in dir (a new temporary one when "") with
// the tests' key ("-": none, the key file's) and steps, and serves it on a loopback httptest server;
// both are closed when the test ends.
func newTestClass(t testing.TB, dir string, o Options) (*Class, *httptest.Server) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	o.Dir = dir
	switch o.ClassKey {
	case "":
		o.ClassKey = testKey
	case "-": // none given: the class draws its own and keeps it in its directory
		o.ClassKey = ""
	}
	if o.Steps == "" {
		o.Steps = testSteps
	}
	if o.MaxStudents == 0 {
		o.MaxStudents = DefaultMaxStudents
	}
	cl, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cl.Handler())
	cl.addr = strings.TrimPrefix(srv.URL, "http://")
	t.Cleanup(func() {
		srv.Close()
		cl.Close()
	})
	return cl, srv
}

// A browser is one browser's cookies against a server.
type browser struct {
	t    testing.TB
	base string
	c    *http.Client
}

func newBrowser(t testing.TB, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, c: &http.Client{Jar: jar}}
}

// get fetches path and returns the status and body.
func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	resp, err := b.c.Get(b.base + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// post submits a form to path and returns the status and body (after
// the redirect, if any).
func (b *browser) post(path string, form url.Values) (int, string) {
	b.t.Helper()
	resp, err := b.c.PostForm(b.base+path, form)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// join joins the class as name and fails the test unless it was let in.
func (b *browser) join(name, code string) string {
	b.t.Helper()
	status, body := b.post("/join", url.Values{"name": {name}, "code": {code}})
	if status != http.StatusOK || !strings.Contains(body, `data-tick=`) {
		b.t.Fatalf("join %s: %d\n%s", name, status, body)
	}
	return body
}

// answer answers question n of step with letter; it returns the status.
func (b *browser) answer(step string, n int, letter string) (int, string) {
	b.t.Helper()
	return b.post("/answer", url.Values{"step": {step}, "n": {strconv.Itoa(n)}, "letter": {letter}})
}

// teacher is a browser holding the instructor's token.
func teacher(t testing.TB, cl *Class, base string) *browser {
	t.Helper()
	b := newBrowser(t, base)
	if status, body := b.get("/teacher?token=" + cl.TeacherToken()); status != http.StatusOK {
		t.Fatalf("teacher: %d\n%s", status, body)
	}
	return b
}

// advance moves the class on from its current phase, as the button does.
func (b *browser) advance(cl *Class) {
	b.t.Helper()
	cl.mu.Lock()
	pos, phase := cl.pos, cl.phase
	cl.mu.Unlock()
	if status, body := b.post("/teacher/advance", url.Values{"pos": {strconv.Itoa(pos)}, "phase": {phase}}); status != http.StatusOK {
		b.t.Fatalf("advance: %d\n%s", status, body)
	}
}

var questionDiv = regexp.MustCompile(`(?s)<div class="question" id="q(\d+)" data-state="(\w+)">(.*?)</div>`)

// questionStates are the states of the questions on a student's page, by
// number: open, answered, closed, later.
func questionStates(page string) map[int]string {
	out := map[int]string{}
	for _, m := range questionDiv.FindAllStringSubmatch(page, -1) {
		n, _ := strconv.Atoi(m[1])
		out[n] = m[2]
	}
	return out
}

// sheet is a student's built step (the server's view, with the right
// answers the student must not see before the reveal).
func sheet(t testing.TB, cl *Class, name string, step string) *studentStep {
	t.Helper()
	i, err := cl.course.StepIndex(step)
	if err != nil {
		t.Fatal(err)
	}
	v, err := cl.views.get(cl, name, i)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// gradeRoster is `once lesson grade`'s roster rows (student, right, asked,
// letters) for records, graded by package lesson from the records alone.
func gradeRoster(t testing.TB, records []*lesson.Record) [][4]string {
	t.Helper()
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	g, err := lesson.NewGrader(c, testKey)
	if err != nil {
		t.Fatal(err)
	}
	var graded []*lesson.Graded
	for _, r := range records {
		gr, err := g.Grade(r)
		if err != nil {
			t.Fatal(err)
		}
		graded = append(graded, gr)
	}
	var out [][4]string
	for _, gr := range lesson.SortedByStudent(graded) {
		out = append(out, [4]string{gr.Student, strconv.Itoa(gr.Right), strconv.Itoa(len(gr.Answers)), Letters(gr)})
	}
	return out
}
