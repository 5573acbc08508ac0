package class

import (
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/lesson"
)

// A class closed mid-step (the laptop crashed) and opened again on its
// directory keeps its students, their answers, the step and its phase,
// the instructor's token and the class key; a student's browser is still
// theirs, and their first answer still counts.
func TestRestartKeepsTheClass(t *testing.T) {
	t.Setenv(lesson.ClassKeyEnv, "")
	dir := t.TempDir()
	cl, srv := newTestClass(t, dir, Options{ClassKey: "-"})
	tb := teacher(t, cl, srv.URL)
	ada := newBrowser(t, srv.URL)
	ada.join("Ada", "")
	step := "double-billing"
	q := sheet(t, cl, "Ada", step).view.Questions[0]
	if status, _ := ada.answer(step, 1, "b"); status != http.StatusOK || !q.Mechanism {
		t.Fatalf("answer: %d", status)
	}
	tb.advance(cl)
	token, key := cl.TeacherToken(), cl.key
	srv.Close()
	cl.Close()

	again, srv2 := newTestClass(t, dir, Options{ClassKey: "-"})
	if again.TeacherToken() != token || again.key != key {
		t.Errorf("the restart drew a new token or key")
	}
	if i, phase := again.current(); again.course.Steps[i].ID != step || phase != Evidence {
		t.Errorf("the restart is at %s/%s, want %s/%s", again.course.Steps[i].ID, phase, step, Evidence)
	}
	ada.base = srv2.URL // the same browser, its cookie kept
	_, page := ada.get("/")
	if !strings.Contains(page, "You are Ada.") || questionStates(page)[1] != "answered" || !strings.Contains(page, "Your answer: b)") {
		t.Errorf("after the restart Ada's page lost her or her answer:\n%s", page)
	}
	if status, _ := ada.answer(step, 1, "c"); status != http.StatusConflict {
		t.Errorf("after the restart a second answer: %d, want 409", status)
	}
	data, err := os.ReadFile(filepath.Join(dir, KeyFile))
	if err != nil || strings.TrimSpace(string(data)) != key {
		t.Errorf("the drawn key is not kept in %s: %v", KeyFile, err)
	}
	info, _ := os.Stat(filepath.Join(dir, KeyFile))
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", KeyFile, info.Mode().Perm())
	}
}

// Opening a class is refused, in one line naming what to change, on
// another class key, other steps, a bad code or --max-students; a port in
// use and a classroom address without a code are refused before anything
// is written.
func TestOpeningRefusals(t *testing.T) {
	dir := t.TempDir()
	cl, err := New(Options{Dir: dir, ClassKey: testKey, MaxStudents: DefaultMaxStudents, Steps: testSteps})
	if err != nil {
		t.Fatal(err)
	}
	cl.Close()
	cases := []struct {
		o  Options
		id string
	}{
		{Options{Dir: dir, ClassKey: testKey + "x", MaxStudents: DefaultMaxStudents}, "class_other_key"},
		{Options{Dir: dir, ClassKey: testKey, MaxStudents: DefaultMaxStudents, Steps: "two-generals"}, "class_other_steps"},
		{Options{Dir: dir, ClassKey: testKey, MaxStudents: DefaultMaxStudents, Code: "a b"}, "class_code"},
		{Options{Dir: dir, ClassKey: testKey, MaxStudents: -1}, "class_max_students"},
		{Options{Dir: dir, ClassKey: testKey}, "class_max_students"}, // 0 was taken as 200 while -1 was refused with "want at least 1"
		{Options{Dir: t.TempDir(), ClassKey: testKey, MaxStudents: DefaultMaxStudents, Steps: "1,double-billing"}, "step_twice"},
	}
	for _, c := range cases {
		_, err := New(c.o)
		checkRefusal(t, err, c.id)
	}
	// A restart without --steps teaches the steps the class started with.
	cl, err = New(Options{Dir: dir, ClassKey: testKey, MaxStudents: DefaultMaxStudents})
	if err != nil {
		t.Fatal(err)
	}
	if len(cl.steps) != 2 {
		t.Errorf("restart without --steps: %d steps, want the class's 2", len(cl.steps))
	}
	cl.Close()

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, err = Listen(Options{Listen: busy.Addr().String()}, "")
	checkRefusal(t, err, "class_port_in_use")
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		_, err = Listen(Options{Listen: addr}, "  ")
		checkRefusal(t, err, "class_needs_code")
	}
	_, err = Listen(Options{Listen: "nonsense"}, "")
	checkRefusal(t, err, "class_listen")
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		l, err := Listen(Options{Listen: addr}, "")
		if err != nil {
			if strings.Contains(addr, "::1") { // a machine without IPv6 loopback
				continue
			}
			t.Errorf("%s: %v", addr, err)
			continue
		}
		l.Close()
	}
}

// checkRefusal fails unless err is a one-line *lesson.InputError worded by
// message id.
func checkRefusal(t *testing.T, err error, id string) {
	t.Helper()
	var ie *lesson.InputError
	var ue *usererr.Error
	if !errors.As(err, &ie) || !errors.As(err, &ue) || ue.ID != id || strings.Contains(err.Error(), "\n") {
		t.Errorf("want refusal %s, got %v", id, err)
	}
}
