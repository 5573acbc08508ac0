package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
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

// marker says whether process pid carries the lab's marker m in its
// environment: yes, no, or unknown. A live process caught inside execve
// (a double fork's "setsid sleep" replacing its image) shows an empty
// environ for a moment; that is unknown, to be asked again, not "no"
// (CI saw such an orphan escape a sweep). A zombie is "no": it is no
// longer running, and reaping it is its parent's business.
func marker(pid int, m string) (yes, known bool) {
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
	if err != nil || len(raw) == 0 {
		return false, !running(pid)
	}
	want := []byte(MarkerEnv + "=" + m)
	for _, kv := range bytes.Split(raw, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true, true
		}
	}
	return false, true
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] != 'Z'
}

// sweep kills and reaps every child of this process that carries marker
// m — descendants of a dead node, reparented here — and then theirs, in
// bounded rounds.
func sweep(m string) { sweepExcept(m, 0) }

// sweepExcept is sweep sparing the process keep (a node kept for the
// next run) but not its descendants that were reparented here. A child
// whose marker cannot be read yet (mid-exec) is looked at again after a
// short pause, within the same bound.
func sweepExcept(m string, keep int) {
	self := os.Getpid()
	for range 64 {
		again := false
		for _, c := range childPids(self) {
			if c == keep {
				continue
			}
			yes, known := marker(c, m)
			if !known {
				again = true
				continue
			}
			if !yes {
				continue
			}
			again = true
			for _, d := range descendants(c) {
				_ = syscall.Kill(d, syscall.SIGKILL)
			}
			_ = syscall.Kill(c, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(c, &ws, 0, nil)
		}
		if !again {
			return
		}
		time.Sleep(time.Millisecond)
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
