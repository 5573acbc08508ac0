package brokers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSweepRemovesOnlyOrphans: a directory whose owner pid is gone is
// removed; this process's, a live process's and another program's stay.
func TestSweepRemovesOnlyOrphans(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(dir, tempPrefix+strconv.Itoa(dead.Process.Pid)+"-redis-1")
	mine := filepath.Join(dir, tempPattern("run")+"2")
	live := filepath.Join(dir, tempPrefix+"1-nats-3") // pid 1 always runs
	other := filepath.Join(dir, "once-live-5-x")
	for _, d := range []string{orphan, mine, live, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweep(dir)
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the orphan %s is still there", orphan)
	}
	for _, d := range []string{mine, live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
