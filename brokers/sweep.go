package brokers

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// tempPrefix starts every temporary directory of this package, followed
// by the owner's pid: once-broker-PID-….
const tempPrefix = "once-broker-"

// tempPattern is the MkdirTemp pattern of a directory this process owns.
func tempPattern(what string) string {
	return tempPrefix + strconv.Itoa(os.Getpid()) + "-" + what + "-"
}

// sweep removes the directories under dir ("": os.TempDir) that a run
// killed with SIGKILL left: those whose owner pid no longer runs.
func sweep(dir string) {
	if dir == "" {
		dir = os.TempDir()
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), tempPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
