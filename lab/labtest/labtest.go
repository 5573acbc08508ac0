// Package labtest holds what the lab's tests share: the Python
// interpreter, the Go starters built into a temporary directory, and the
// check that no process a test started survives it.
package labtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Python returns the path of the python3 interpreter itself (not a
// version manager's shim, whose start-up costs more than a schedule). A
// test needing it fails when CI is set and python3 is missing, and is
// skipped, saying so, otherwise.
func Python(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is required under CI (.ci/run installs it): %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	out, err := exec.Command(path, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatalf("python3 -c: %v", err)
	}
	if exe := strings.TrimSpace(string(out)); exe != "" {
		return exe
	}
	return path
}

// Node returns the path of the node (Node.js) interpreter. A test
// needing it fails when CI is set and node is missing, and is skipped,
// saying so, otherwise.
func Node(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"node", "nodejs"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("node is required under CI (the protocol page's Node.js section is run)")
	}
	t.Skip("node not found: the protocol page's Node.js section is not run")
	return ""
}

// Root is the module's root directory.
func Root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("labtest: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

var (
	buildMu  sync.Mutex
	built    = map[string]string{}
	buildDir string
)

// BuildGo builds examples/lab/go/NAME into a temporary directory and
// returns the binary's path (built once per test binary; Cleanup, from
// TestMain, removes the directory).
func BuildGo(t testing.TB, name string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[name]; ok {
		return p
	}
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "once-lab-starter-*")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = dir
	}
	bin := filepath.Join(buildDir, name)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool builds the Go starters: %v", err)
	}
	cmd := exec.Command(goTool, "build", "-o", bin, "./examples/lab/go/"+name)
	cmd.Dir = Root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	built[name] = bin
	return bin
}

// Cleanup removes the binaries BuildGo built. Call it from TestMain after
// m.Run: the binaries are shared by every test of the package.
func Cleanup() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
		buildDir, built = "", map[string]string{}
	}
}

// Marked lists every live process (zombies excepted) that carries the
// lab's marker (lab.MarkerEnv) of this test process: whatever the
// harness started, with all their descendants, setsid ones included. A
// test that ran a lab calls it at its end and wants none.
func Marked(t testing.TB) []string {
	t.Helper()
	var out []string
	for try := 0; try < 50; try++ {
		if out = markedOnce(t); len(out) == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return out
}

func markedOnce(t testing.TB) []string {
	t.Helper()
	prefix := []byte("ONCE_LAB_NODE=" + strconv.Itoa(os.Getpid()) + ".")
	var out []string
	for _, p := range processes(t) {
		env, err := os.ReadFile(filepath.Join("/proc", p.pid, "environ"))
		if err != nil || !(bytes.HasPrefix(env, prefix) || bytes.Contains(env, append([]byte{0}, prefix...))) {
			continue
		}
		if p.state() != "Z" {
			out = append(out, p.head+" state "+p.state())
		}
	}
	return out
}

// A process is one entry of /proc: its pid, its stat line's "pid (comm)"
// and the fields after it (state ppid pgrp …).
type process struct {
	pid, head string
	fields    []string
}

func (p process) state() string { return p.fields[0] }

// processes lists the live entries of /proc whose stat line parses (comm
// may hold spaces and parentheses: the fields start after the last ')').
func processes(t testing.TB) []process {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("read /proc: %v", err)
	}
	var out []process
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // it ended while we looked
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) >= 3 {
			out = append(out, process{pid: e.Name(), head: s[:i+1], fields: f})
		}
	}
	return out
}

// Pids collects the pids (= process groups) the harness starts; its Add
// is safe for concurrent use.
type Pids struct {
	mu   sync.Mutex
	pids []int
}

// Add records one pid.
func (p *Pids) Add(pid int) {
	p.mu.Lock()
	p.pids = append(p.pids, pid)
	p.mu.Unlock()
}

// Len is how many were started.
func (p *Pids) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pids)
}

// Survivors lists every live process (zombies excepted: they are dead,
// waiting for a parent to reap them) whose process group is one the
// harness started, read from /proc.
func (p *Pids) Survivors(t testing.TB) []string {
	t.Helper()
	// A process SIGKILLed a moment ago may still be on its way out (state R
	// or D while the kernel tears it down, as seen under load): look again,
	// a bounded number of times, before calling it a survivor.
	var out []string
	for try := 0; try < 50; try++ {
		if out = p.survivorsOnce(t); len(out) == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return out
}

func (p *Pids) survivorsOnce(t testing.TB) []string {
	t.Helper()
	p.mu.Lock()
	groups := map[int]bool{}
	for _, pid := range p.pids {
		groups[pid] = true
	}
	p.mu.Unlock()
	var out []string
	for _, pr := range processes(t) {
		pgrp, _ := strconv.Atoi(pr.fields[2])
		if groups[pgrp] && pr.state() != "Z" {
			out = append(out, pr.head+" state "+pr.state())
		}
	}
	return out
}

// ProtocolBlock is the ```lang block after heading in
// docs/lab-protocol.md, with its final newline: a program the page shows
// whole, which a test runs as it stands.
func ProtocolBlock(t testing.TB, heading, lang string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Root(t), "docs", "lab-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading)
	if !ok {
		t.Fatalf("docs/lab-protocol.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(after, "\n```"+lang+"\n")
	if !ok {
		t.Fatalf("no ```%s block after %q", lang, heading)
	}
	block, _, ok = strings.Cut(block, "\n```\n")
	if !ok {
		t.Fatalf("the ```%s block after %q does not end", lang, heading)
	}
	return block + "\n"
}
