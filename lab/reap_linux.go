package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

var subreaper sync.Once

// becomeSubreaper makes this process the reaper of its orphaned
// descendants: a node's grandchild that outlives its parent — a daemon's
// double fork, a setsid child — is reparented here, not to init, so the
// sweep finds it among this process's children.
func becomeSubreaper() {
	subreaper.Do(func() {
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}

// childPids lists the pids whose parent is pid, from every thread's
// /proc/PID/task/TID/children (one small read per thread).
func childPids(pid int) []int {
	base := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		raw, err := os.ReadFile(filepath.Join(base, t.Name(), "children"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(raw)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// descendants lists every process below pid (bounded: a fork bomb stops
// the walk, the group kill and the sweep take the rest).
func descendants(pid int) []int {
	var out []int
	queue := childPids(pid)
	for len(queue) > 0 && len(out) < 4096 {
		c := queue[0]
		queue = queue[1:]
		out = append(out, c)
		queue = append(queue, childPids(c)...)
	}
	return out
}

// marked reports whether process pid carries the lab's marker m in its
// environment.
func marked(pid int, m string) bool {
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
	if err != nil {
		return false
	}
	want := []byte(MarkerEnv + "=" + m)
	for _, kv := range bytes.Split(raw, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// sweep kills and reaps every child of this process that carries marker
// m — descendants of a dead node, reparented here — and then theirs, in
// bounded rounds.
func sweep(m string) { sweepExcept(m, 0) }

// sweepExcept is sweep sparing the process keep (a node kept for the
// next run) but not its descendants that were reparented here.
func sweepExcept(m string, keep int) {
	self := os.Getpid()
	for range 64 {
		found := false
		for _, c := range childPids(self) {
			if c == keep || !marked(c, m) {
				continue
			}
			found = true
			for _, d := range descendants(c) {
				_ = syscall.Kill(d, syscall.SIGKILL)
			}
			_ = syscall.Kill(c, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(c, &ws, 0, nil)
		}
		if !found {
			return
		}
	}
}

// killDescendants kills every process below pid, and the ones its
// family left reparented to this program (marked m), sparing pid itself:
// what a node kept for another run started is gone with the run.
func killDescendants(pid int, m string) {
	for _, d := range descendants(pid) {
		_ = syscall.Kill(d, syscall.SIGKILL)
	}
	sweepExcept(m, pid)
}

// procAttr is how a node is started: in a process group of its own, and
// killed by the kernel if this program dies first (SIGKILL included,
// which leaves no handler a chance), so that a hung node never outlives
// it. (The signal follows the thread that started the node; Go's runtime
// does not end its threads while the program runs.)
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
