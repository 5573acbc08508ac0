package main

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/oncesim/once/class"
	"github.com/oncesim/once/report/lang"
)

// classPages are the pages `once class` serves in language l, every kind
// a class shows — the join form and its refusals, a student's page in each
// phase of two steps (an answer recorded, one refused), the instructor's
// dashboard, its live panel and its projector mode — and the lines it
// prints at the start, for the English-words scan.
func classPages(t *testing.T, l lang.Lang) string {
	t.Helper()
	lang.Set(l)
	defer lang.Set(lang.English)
	dir := t.TempDir()
	cl, err := class.New(class.Options{Dir: dir, ClassKey: testClassKey, Steps: "double-billing,two-generals", Code: "k7q2", MaxStudents: class.DefaultMaxStudents})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	srv := httptest.NewServer(cl.Handler())
	defer srv.Close()
	var all strings.Builder
	cl.Banner(&all, class.Options{})
	browser := func() *http.Client { jar, _ := cookiejar.New(nil); return &http.Client{Jar: jar} }
	keep := func(resp *http.Response, err error) {
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		all.Write(body)
	}
	student, teacher := browser(), browser()
	keep(student.Get(srv.URL + "/"))
	keep(student.PostForm(srv.URL+"/join", url.Values{"name": {"ada"}, "code": {"nope"}}))
	keep(student.PostForm(srv.URL+"/join", url.Values{"name": {"ada"}, "code": {"k7q2"}}))
	keep(browser().PostForm(srv.URL+"/join", url.Values{"name": {"ada"}, "code": {"k7q2"}}))
	keep(teacher.Get(srv.URL + "/teacher?token=" + cl.TeacherToken()))
	for step, id := range []string{"double-billing", "two-generals"} {
		for phase := range 3 {
			for n := 1; n <= 3; n++ {
				keep(student.PostForm(srv.URL+"/answer", url.Values{"step": {id}, "n": {strconv.Itoa(n)}, "letter": {"a"}}))
			}
			keep(teacher.Get(srv.URL + "/teacher"))
			keep(teacher.Get(srv.URL + "/teacher?projector=1"))
			keep(teacher.PostForm(srv.URL+"/teacher/advance", url.Values{"pos": {strconv.Itoa(step)}, "phase": {[]string{class.Predict, class.Evidence, class.Revealed}[phase]}}))
		}
	}
	keep(student.Get(srv.URL + "/"))
	keep(browser().Get(srv.URL + "/teacher"))
	out := strings.ReplaceAll(all.String(), dir, "")                         // the state file's folder
	return regexp.MustCompile(`https?://[^\s"<]+`).ReplaceAllString(out, "") // addresses are not words
}

// `once class` refuses, in one line and exit 2, a classroom address
// without a join code and a port in use, before it writes anything.
func TestClassRefusesBeforeWriting(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "off this computer a class needs a join code: add `--code random`"},
		{[]string{"--listen", busy.Addr().String()}, "the port is in use"},
		{[]string{"--listen", "nonsense"}, "not an address to listen on"},
	} {
		dir := filepath.Join(t.TempDir(), "class")
		exit, out, stderr := executeWithInput(append([]string{"class", "--dir", dir}, c.args...), "")
		if exit != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || out != "" {
			t.Errorf("class %v: exit %d, stderr %q, want 2 and one line with %q", c.args, exit, stderr, c.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("class %v wrote %s before refusing", c.args, dir)
		}
	}
}
