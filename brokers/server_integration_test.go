//go:build integration

package brokers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// shared holds the one server per broker a test package starts (started
// on first use, stopped by TestMain).
var shared struct {
	sync.Mutex
	servers map[Kind]*Server
}

func TestMain(m *testing.M) {
	if os.Getenv(orphanEnv) != "" { // the child of TestIntegrationParentDeath
		orphanMain()
		return
	}
	if os.Getenv(workerEnv) != "" { // a worker process of a driver test
		if err := WorkerMain(os.Args[len(os.Args)-1], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	shared.Lock()
	for _, s := range shared.servers {
		if err := s.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	shared.Unlock()
	os.Exit(code)
}

// needServer is the package's one server of kind. A broker that is not
// installed skips the test, and fails it under CI (make brokers installs
// them).
func needServer(t *testing.T, kind Kind) *Server {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if s := shared.servers[kind]; s != nil {
		return s
	}
	needInstalled(t, kind)
	s, err := Start(context.Background(), kind, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if shared.servers == nil {
		shared.servers = map[Kind]*Server{}
	}
	shared.servers[kind] = s
	return s
}

// needInstalled skips a test whose broker is not installed, and fails it
// under CI (make brokers installs them).
func needInstalled(t *testing.T, kind Kind) {
	t.Helper()
	if err := Installed(kind); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v, and CI=%q requires the broker tests to run", err, os.Getenv("CI"))
		}
		t.Skipf("%v", err)
	}
}

// gone fails the test if a pid still runs (a zombie counts as gone only
// once reaped: Stop reaps its children), or if a process names dir.
func gone(t *testing.T, pids []int, dir string) {
	t.Helper()
	for _, pid := range pids {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			t.Errorf("pid %d is still there after Stop", pid)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the server's directory %s is still there (%v)", dir, err)
	}
	if pids := namingDir(dir); len(pids) > 0 {
		t.Errorf("processes %v still name %s", pids, dir)
	}
}

// namingDir lists the processes whose command line or environment names
// dir (RabbitMQ's node and children carry it in both).
func namingDir(dir string) []int {
	var found []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		for _, f := range []string{"cmdline", "environ"} {
			b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), f))
			if strings.Contains(string(b), dir) {
				found = append(found, pid)
				break
			}
		}
	}
	return found
}

// TestIntegrationServerLifecycle starts a throwaway server of each
// broker, checks it answers on loopback, stops it and checks that no
// process and no directory is left.
func TestIntegrationServerLifecycle(t *testing.T) {
	for _, kind := range []Kind{Redis, NATS, RabbitMQ} {
		t.Run(string(kind), func(t *testing.T) {
			start := time.Now()
			needInstalled(t, kind)
			s, err := Start(context.Background(), kind, ServerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s ready in %s at %s (pids %v)", kind, time.Since(start).Round(time.Millisecond), s.Addr, s.Pids())
			if !strings.HasPrefix(s.Addr, "127.0.0.1:") || !s.answers() {
				t.Errorf("%s at %s: want a loopback server that answers", kind, s.Addr)
			}
			pids, dir := s.Pids(), s.Dir
			stopAt := time.Now()
			if err := s.Stop(); err != nil {
				t.Error(err)
			}
			t.Logf("%s stopped in %s", kind, time.Since(stopAt).Round(time.Millisecond))
			gone(t, pids, dir)
			if err := s.Stop(); err != nil { // twice: every path may call it
				t.Errorf("a second Stop: %v", err)
			}
		})
	}
}

// TestIntegrationStartCancelled is Ctrl-C during a start: Start returns
// the context's error and leaves nothing.
func TestIntegrationStartCancelled(t *testing.T) {
	needInstalled(t, Redis)
	before := map[int]bool{}
	for _, p := range childPids() {
		before[p] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tmp := t.TempDir()
	s, err := Start(ctx, Redis, ServerOptions{TempDir: tmp})
	if err == nil {
		s.Stop()
		t.Fatal("Start with a cancelled context succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Start: %v, want context.Canceled", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("Start left %d entries in its temp dir", len(ents))
	}
	for _, p := range childPids() {
		if !before[p] {
			t.Errorf("a child %d is left", p)
		}
	}
}

// childPids are this process's children that still run.
func childPids() []int {
	var kids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) && f[0] != "Z" {
			kids = append(kids, pid)
		}
	}
	return kids
}

// orphanEnv makes the test binary the child of TestIntegrationParentDeath:
// it starts a server, prints its pids and waits to be killed.
const orphanEnv = "ONCE_BROKERS_ORPHAN"

func orphanMain() {
	s, err := Start(context.Background(), Kind(os.Getenv(orphanEnv)), ServerOptions{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("pids", strings.Trim(fmt.Sprint(s.Pids()), "[]"), s.Dir)
	select {}
}

// TestIntegrationParentDeath kills a process that started servers with
// SIGKILL, which runs no cleanup: the kernel's parent-death signal ends
// each server with it (the directory stays; that is the one thing a
// SIGKILL leaves, under the system's temp dir).
func TestIntegrationParentDeath(t *testing.T) {
	for _, kind := range []Kind{Redis, NATS, RabbitMQ} {
		t.Run(string(kind), func(t *testing.T) {
			needInstalled(t, kind)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), orphanEnv+"="+string(kind))
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "pids" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the child said %q", line)
			}
			dir := f[len(f)-1]
			defer os.RemoveAll(dir)
			var pids []int
			for _, p := range f[1 : len(f)-1] {
				n, _ := strconv.Atoi(p)
				pids = append(pids, n)
			}
			cmd.Process.Kill()
			cmd.Wait()
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range pids {
				for alive(pid) && time.Now().Before(deadline) {
					time.Sleep(50 * time.Millisecond)
				}
				if alive(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("%s's pid %d outlived its parent", kind, pid)
				}
			}
		})
	}
}

// alive says whether pid runs (a zombie, dead but not reaped by init yet,
// does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
