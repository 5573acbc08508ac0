//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oncesim/once/internal/fileio"
	"github.com/oncesim/once/lab"
	"github.com/oncesim/once/report/lang"
)

// The hostile-input cases of issue 35 about files: what is at an output
// path is never replaced unless it is a regular file, only regular files
// are read, and texts loaded from a file reach the terminal with their
// control characters escaped. Each case is a command line and the one
// line it must be refused with (exit 2, nothing on stdout).

// hostilePaths makes, in a fresh directory, a FIFO, a symbolic link to a
// regular file, and a directory; with /dev/null (a character device:
// refused before anything is done, so the test never risks it, even as
// root) they are the paths no output may replace and no input may be.
type hostilePaths struct {
	dir, fifo, link, target, subdir string
}

func makeHostilePaths(t *testing.T) hostilePaths {
	t.Helper()
	dir := t.TempDir()
	h := hostilePaths{dir: dir, fifo: filepath.Join(dir, "fifo"), link: filepath.Join(dir, "link"),
		target: filepath.Join(dir, "target"), subdir: filepath.Join(dir, "subdir")}
	if err := syscall.Mkfifo(h.fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.target, h.link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(h.subdir, 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

// refusedWithin runs once with args and checks the refusal: exit 2, one
// line on stderr holding want, nothing on stdout, within 5 s (a FIFO
// opened for reading blocks until a writer comes: it used to hang).
func refusedWithin(t *testing.T, want string, args ...string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runOnce(args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("once %s: exit %d, stdout %.200q, stderr %q; want exit 2 and one line with %q", strings.Join(args, " "), r.code, r.stdout, r.stderr, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("once %s: still running after 5 s", strings.Join(args, " "))
	}
}

// snapshot is what is at a path, to check it is left as it was.
func snapshot(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	s := info.Mode().String()
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		to, _ := os.Readlink(path)
		data, _ := os.ReadFile(to)
		s += " → " + to + " " + string(data)
	case info.IsDir():
		entries, _ := os.ReadDir(path)
		s += " " + strings.Repeat("+", len(entries))
	case info.Mode()&fs.ModeCharDevice != 0:
		st := info.Sys().(*syscall.Stat_t)
		s += fmt.Sprint(" rdev ", st.Rdev)
	}
	return s
}

// TestHostileOutputPaths: --out, --save, --result and the profiles at a
// character device, a FIFO, a symbolic link or a directory exit 2 with
// one line, before any work, and leave what is there as it was.
//
// Run as root, a regression would replace /dev/null itself (it did, once,
// while this test was written against a deliberately broken check). So
// /dev/null comes last, and only if every command refused everything
// before it: first fileio's own check of /dev/null, then, as root, a copy
// of the device made with mknod in the test's directory (replacing it
// harms nothing), then the FIFO, the link and the directory.
func TestHostileOutputPaths(t *testing.T) {
	h := makeHostilePaths(t)
	if info, err := os.Lstat("/dev/null"); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Skipf("/dev/null is not a character device here: %v", err)
	}
	if err := fileio.CheckOutput("/dev/null"); err == nil {
		t.Fatal("fileio.CheckOutput accepts /dev/null: not running commands that would replace it")
	}
	targets := []struct{ path, kind string }{}
	if dev := filepath.Join(h.dir, "null"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		targets = append(targets, struct{ path, kind string }{dev, "is a device"})
	} else if os.Geteuid() == 0 {
		t.Fatal("root, yet no character device could be made to try first: not running commands at /dev/null")
	}
	targets = append(targets, []struct{ path, kind string }{
		{h.fifo, "is a named pipe (FIFO)"},
		{h.link, "is a symbolic link"},
		{h.subdir, "is a directory"},
		{"/dev/null", "is a device"},
	}...)
	for _, target := range targets {
		if target.path == "/dev/null" && t.Failed() {
			t.Fatal("a command did not refuse a path above: not running it at /dev/null")
		}
		before := snapshot(t, target.path)
		for _, c := range []struct {
			flag string
			args []string
		}{
			{"--out", []string{"explore", "double-billing", "--out", target.path}},
			{"--out", []string{"matrix", "double-billing", "--seeds", "2", "--out", target.path}},
			{"--out", []string{"sweep", "double-billing", "--vary", "loss=0:0.2:0.1", "--seeds", "2", "--out", target.path}},
			{"--out", []string{"merge", filepath.Join(h.dir, "none.json"), "--out", target.path}},
			{"--save", []string{"run", "double-billing", "--semantics", "alo", "--save", target.path}},
			{"--save", []string{"explore", "double-billing", "--save", target.path}},
			{"--save", []string{"lab", "double-billing", "--node", "service=/nonexistent", "--save", target.path}},
			{"--result", []string{"lesson", "--plain", "--result", target.path}},
			{"--cpuprofile", []string{"matrix", "double-billing", "--seeds", "2", "--cpuprofile", target.path}},
			{"--memprofile", []string{"sweep", "double-billing", "--vary", "loss=0:0.2:0.1", "--seeds", "2", "--memprofile", target.path}},
		} {
			refusedWithin(t, c.flag+" "+target.path+": "+target.kind+", not a regular file", c.args...)
			if after := snapshot(t, target.path); after != before {
				t.Fatalf("once %s: %s was %s, is now %s", strings.Join(c.args, " "), target.path, before, after)
			}
		}
	}
	// --out with {shard}: checked once the shard's index is known, still before the run.
	if err := os.Symlink(h.target, filepath.Join(h.dir, "x0")); err != nil {
		t.Fatal(err)
	}
	refusedWithin(t, "--out "+h.dir+"/x0: is a symbolic link", "matrix", "double-billing", "--seeds", "2", "--shard", "0/2", "--out", h.dir+"/x{shard}")
	// A lesson pack is a directory: a symbolic link or a file there is refused.
	refusedWithin(t, "--out "+h.link+": is a symbolic link", "lesson", "--out", h.link, "--force")
	if data, _ := os.ReadFile(h.target); string(data) != "keep" {
		t.Errorf("the symbolic link's target was written: %q", data)
	}
	for _, e := range mustReadDir(t, h.dir) {
		if strings.HasPrefix(e.Name(), ".once-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	// A regular file is still replaced, and - is stdout.
	out := filepath.Join(h.dir, "report.txt")
	os.WriteFile(out, []byte("old"), 0o644)
	if code, _, stderr := runOnce("explore", "double-billing", "--out", out); code != exitOK {
		t.Fatalf("--out over a regular file: exit %d, %s", code, stderr)
	}
	if code, stdout, _ := runOnce("explore", "double-billing", "--out", "-"); code != exitOK || !strings.Contains(stdout, "double-billing") {
		t.Errorf("--out -: exit %d, stdout %q", code, stdout)
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestHostileInputFiles: a plan, a shard, a scenario file (-f, or named
// by a plan), a lesson result that is a FIFO, a directory or a device is
// refused before it is opened, within 5 s (a FIFO hung replay, lab
// --replay and merge's *.json expansion).
func TestHostileInputFiles(t *testing.T) {
	h := makeHostilePaths(t)
	shards := filepath.Join(h.dir, "shards")
	os.Mkdir(shards, 0o755)
	if err := syscall.Mkfifo(filepath.Join(shards, "part0.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	scenario, err := os.ReadFile("../../testdata/scenarios/valid/mobile-checkout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(h.dir, "mobile.yaml"), scenario, 0o644)
	plan := filepath.Join(h.dir, "plan.txt")
	if code, _, stderr := runOnce("run", "-f", filepath.Join(h.dir, "mobile.yaml"), "--semantics", "alo", "--save", plan); code != exitOK {
		t.Fatalf("saving a plan: exit %d, %s", code, stderr)
	}
	data, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	// The same plan beside a FIFO named as its scenario file.
	fifoPlan := filepath.Join(h.dir, "fifo-plan.txt")
	fields := strings.Fields(string(data))
	var ref string
	for i, f := range fields {
		if f == "file" && i+1 < len(fields) {
			ref = fields[i+1]
			break
		}
	}
	if ref == "" {
		t.Fatalf("the plan names no file:\n%s", data)
	}
	os.WriteFile(fifoPlan, []byte(strings.Replace(string(data), "file "+ref, "file fifo", 1)), 0o644)

	for _, in := range []struct{ path, kind string }{
		{h.fifo, "is a named pipe (FIFO)"},
		{h.subdir, "is a directory"},
		{"/dev/zero", "is a device"},
	} {
		for _, c := range []struct {
			want string
			args []string
		}{
			{"plan " + in.path + ": ", []string{"replay", in.path}},
			{"plan " + in.path + ": ", []string{"lab", "--replay", in.path, "--node", "service=/nonexistent"}},
			{"plan " + in.path + ": ", []string{"live", "--replay", in.path}},
			{"scenario file " + in.path + ": ", []string{"run", "-f", in.path}},
			{"scenario file " + in.path + ": ", []string{"explain", "-f", in.path}},
			{"scenario file " + in.path + ": ", []string{"validate", in.path}},
			{"scenario file " + in.path + ": ", []string{"matrix", "-f", in.path, "--seeds", "2"}},
			{"scenario file " + in.path + ": ", []string{"replay", plan, "-f", in.path}},
			{in.path + ": ", []string{"lesson", "grade", in.path, "--class-key", "test-class-key-0123456789"}},
		} {
			refusedWithin(t, c.want+in.kind+", not a regular file", c.args...)
		}
	}
	refusedWithin(t, h.fifo+": is a named pipe (FIFO), not a regular file", "merge", h.fifo)
	refusedWithin(t, filepath.Join(shards, "part0.json")+": is a named pipe (FIFO), not a regular file", "merge", shards)
	refusedWithin(t, "file fifo: is a named pipe (FIFO), not a regular file", "replay", fifoPlan)
	if info, err := os.Lstat(h.fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone: %v", err)
	}
}

// TestHostileTextsEscaped: a scenario file whose every text holds a BEL
// and an OSC sequence (YAML "\a", "\e]0;PWN\a") prints them escaped in
// text, Markdown and Mermaid; JSON keeps them as JSON escapes. An error
// line escapes what it quotes (here a file name), and so does the tail of
// a lab node's stderr printed after its error.
func TestHostileTextsEscaped(t *testing.T) {
	const file = "../../testdata/scenarios/hostile/control-chars.yaml"
	const shown = `\a\x1b]0;PWN\a`
	raw := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f) })
	}
	t.Setenv("NO_COLOR", "1")
	for _, args := range [][]string{
		{"run", "-f", file},
		{"run", "-f", file, "--semantics", "alo", "--format", "md"},
		{"run", "-f", file, "--semantics", "alo", "--format", "mermaid"},
		{"explain", "-f", file},
		{"explain", "-f", file, "--format", "md"},
		{"matrix", "-f", file, "--seeds", "2", "--format", "md"},
		{"sweep", "-f", file, "--vary", "ttl=20s:40s:10s", "--seeds", "2"},
		{"validate", file},
	} {
		code, stdout, stderr := runOnce(args...)
		if code != exitOK || raw(stdout) || raw(stderr) {
			t.Errorf("once %s: exit %d, raw control characters in stdout %v, stderr %v", strings.Join(args, " "), code, raw(stdout), raw(stderr))
		}
		if args[0] != "validate" && !strings.Contains(stdout, `\a\x1b]0`) { // Mermaid writes ; as #59;
			t.Errorf("once %s: the texts are not shown escaped:\n%s", strings.Join(args, " "), stdout)
		}
	}
	code, stdout, _ := runOnce("run", "-f", file, "--format", "json")
	if code != exitOK || raw(stdout) || !strings.Contains(stdout, `\u0007\u001b]0;PWN\u0007`) {
		t.Errorf("run --format json: exit %d; want the texts as JSON escapes", code)
	}
	opts, err := tuiStartOf(t, "-f", file)
	if err != nil || opts.Start == nil || !strings.HasPrefix(opts.Start.Summary, shown) {
		t.Errorf("tui -f: the first scenario's summary is %q (%v), want it escaped", opts.Start.Summary, err)
	}

	refusedWithin(t, `scenario file \a\x1b]0;PWN\a: no such file or directory`, "run", "-f", "\a\x1b]0;PWN\a")
	if got := lang.ErrorLine(fmt.Errorf("node said %q then \x1b[2J\rover", "x")); got != `node said "x" then \x1b[2J\rover` {
		t.Errorf("ErrorLine = %q", got)
	}
	var tail bytes.Buffer
	lab.WriteStderrTail(&tail, &lab.Error{Node: "service", Err: fmt.Errorf("exited"), Stderr: []byte("boom\x1b]0;PWN\a\n")}, false)
	if raw(tail.String()) || !strings.Contains(tail.String(), `boom\x1b]0;PWN\a`) {
		t.Errorf("the node's stderr tail: %q", tail.String())
	}
}
