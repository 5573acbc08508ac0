package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEndToEndOpensOnTheLesson runs `once tui double-billing` in a real
// 80x24 terminal, in English and (from LANG alone) in Romanian: the first
// screen, before any key, shows the headline violation — the second
// charge under the cursor — and fits the terminal.
func TestEndToEndOpensOnTheLesson(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tmux is not installed, and CI=%q requires this test to run", os.Getenv("CI"))
		}
		t.Skip("tmux is not installed (set CI=1 to make this a failure)")
	}
	bin := filepath.Join(t.TempDir(), "once")
	build := exec.Command("go", "build", "-o", bin, "github.com/oncesim/once/cmd/once")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for i, c := range []struct {
		env   string
		wants []string
	}{
		{"LC_ALL= LC_MESSAGES= LANG=en_US.UTF-8", []string{"violation 1/1", "op-3 charged twice", "at-least-once ≥1"}},
		{"LC_ALL= LC_MESSAGES= LANG=ro_RO.UTF-8", []string{"încălcarea 1/1", "op-3 taxat de două ori", "at-least-once ≥1"}},
	} {
		s := &tmuxSession{t: t, socket: fmt.Sprintf("once-tui-lesson-%d-%d", os.Getpid(), i), name: "once"}
		if out, err := s.tmux("new-session", "-d", "-s", s.name, "-x", "80", "-y", "24",
			"env NO_COLOR=1 "+c.env+" "+bin+" tui double-billing --seed 1"); err != nil {
			t.Fatalf("tmux new-session: %v: %s", err, out)
		}
		t.Cleanup(func() { _, _ = s.tmux("kill-server") })
		screen := s.waitFor("the first screen ("+c.env+")", c.wants...)
		if line := cursorLine(screen); !strings.Contains(line, "8826") {
			t.Errorf("%s: the cursor is not on the second charge (8826): %q\n%s", c.env, line, screen)
		}
		lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
		if len(lines) > 24 {
			t.Errorf("%s: %d lines on a 24-line terminal", c.env, len(lines))
		}
		s.keys("q")
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := s.tmux("has-session", "-t", s.name); err != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("q did not quit:\n%s", s.capture())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
