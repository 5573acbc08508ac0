//go:build integration

package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
)

// tmuxSession drives one program in a detached tmux session on a private
// server socket, so it never touches the user's tmux.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

func (s *tmuxSession) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	if out, err := s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...); err != nil {
		s.t.Fatalf("tmux send-keys %v: %v: %s", keys, err, out)
	}
}

func (s *tmuxSession) capture() string {
	out, _ := s.tmux("capture-pane", "-p", "-t", s.name)
	return out
}

// waitFor polls the pane until it shows every one of want, for up to 10 s.
func (s *tmuxSession) waitFor(what string, want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		screen := s.capture()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(screen, w)
		}
		if ok {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: after 10s the screen still lacks %q:\n%s", what, want, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestIntegrationEndToEndInTmux builds the once binary and drives `once tui` in a
// real terminal: pick double-billing, which opens on at-least-once's
// double charge, go back to the first event, ask a what-if, quit. It runs with NO_COLOR set and checks
// that no colour reaches the terminal (bold and reverse may).
func TestIntegrationEndToEndInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		// CI installs tmux (.ci/run); there a missing tmux is a broken
		// install step, not a reason to pass quietly.
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
	s := &tmuxSession{t: t, socket: fmt.Sprintf("once-tui-test-%d", os.Getpid()), name: "once"}
	if out, err := s.tmux("new-session", "-d", "-s", s.name, "-x", "100", "-y", "30", "env NO_COLOR=1 "+bin+" tui --seed 3 --lang en"); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { _, _ = s.tmux("kill-server") })

	s.waitFor("the picker", "pick a scenario", "double-billing")
	i := slices.IndexFunc(scenarios.All(), func(sc *scenarios.Scenario) bool { return sc.Name == "double-billing" })
	for range i {
		s.keys("j")
	}
	s.waitFor("the cursor on double-billing", "▸ double-billing")
	s.keys("Enter")
	// A picked scenario opens on its lesson: at-least-once, the cursor on
	// the second charge; g goes back to the first event.
	s.waitFor("the run view", "at-least-once ≥1", "seed 3", "timeline", "violation 1/")
	s.keys("g")
	screen := s.waitFor("at-least-once", "at-least-once ≥1", "duplicated", "event 1 of")
	for _, w := range []string{"op-1", "lanes", "client", "service", "gateway", "? help"} {
		if !strings.Contains(screen, w) {
			t.Errorf("the run view lacks %q:\n%s", w, screen)
		}
	}
	// n jumps to the first fault or effect; keep going to the first drop,
	// then x asks "what if it had arrived?".
	for range 20 {
		before := eventNumber.FindString(s.capture())
		s.keys("n")
		deadline := time.Now().Add(10 * time.Second)
		for eventNumber.FindString(s.capture()) == before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if strings.Contains(cursorLine(s.capture()), "DROP") {
			break
		}
	}
	if !strings.Contains(cursorLine(s.capture()), "DROP") {
		t.Fatalf("n never reached a drop:\n%s", s.capture())
	}
	s.keys("x")
	s.waitFor("the what-if", "WHAT-IF", "↩ deliver", "duplicated → exactly-once")
	styled, _ := s.tmux("capture-pane", "-e", "-p", "-t", s.name)
	if c := colourSGR.FindString(styled); c != "" {
		t.Errorf("NO_COLOR is set but the screen has colour %q:\n%s", c, styled)
	}
	s.keys("?")
	s.waitFor("the full help", "previous semantics")
	s.keys("q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := s.tmux("has-session", "-t", s.name); err != nil {
			break // the program quit and its session closed
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit:\n%s", s.capture())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cursorLine is the lanes row under the cursor: "▸ 191ms │ … DROP …".
func cursorLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "▸" && timeField.MatchString(f[1]) {
			return l
		}
	}
	return ""
}

var (
	timeField   = regexp.MustCompile(`^[0-9]+(?:[.,][0-9]+)?(?:m?s|м?с)?$`) // 1.277s, or 1,277 before its unit (ro, ru)
	eventNumber = regexp.MustCompile(`event [0-9]+ of`)
	// colourSGR matches a select-graphic-rendition sequence that sets a
	// foreground or background colour (39 and 49, the defaults, are fine).
	colourSGR = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)
)
