//go:build integration

package live

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// onLine is a writer that calls do once, at the first write holding line.
type onLine struct {
	w    io.Writer
	line string
	do   func()
	once sync.Once
}

func (o *onLine) Write(p []byte) (int, error) {
	if strings.Contains(string(p), o.line) {
		o.once.Do(o.do)
	}
	return o.w.Write(p)
}

// children lists the processes whose parent is this test process.
func children(t *testing.T) []string {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	me := strconv.Itoa(os.Getpid())
	var out []string
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // gone while we looked
		}
		// pid (comm) state ppid …: comm may hold spaces, so cut after ')'.
		s := string(b)
		rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(rest) > 1 && rest[1] == me {
			out = append(out, strings.TrimSpace(s[:strings.LastIndexByte(s, ')')+1])+" "+rest[0])
		}
	}
	return out
}

// TestIntegrationNothingLeftRunning: after a run — one that ends, and one cancelled
// in the middle as Ctrl-C cancels it — no service process is left and
// none of the addresses the run listened on still accepts a connection.
// Crashes are frequent here, so service processes are killed and
// restarted during the run.
func TestIntegrationNothingLeftRunning(t *testing.T) {
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	faults := sc.Faults
	if err := faults.Set("crash", "0.3"); err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 3, Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	addr := regexp.MustCompile(`listening on (?:http://)?(127\.0\.0\.1:\d+)`)
	for _, cancelAfter := range []time.Duration{0, 150 * time.Millisecond} {
		var log bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		var logw io.Writer = &log
		if cancelAfter > 0 { // Ctrl-C in the middle: cancelAfter after the service started
			logw = &onLine{w: &log, line: "service pid", do: func() { time.AfterFunc(cancelAfter, cancel) }}
		}
		_, err := Run(ctx, Options{Config: cfg, Chooser: sim.NewRandom(5), Binary: onceBinary,
			Tick: liveTick, Deadline: time.Minute, Log: logw})
		cancel()
		if cancelAfter == 0 && err != nil {
			t.Fatalf("run: %v", err)
		}
		// The run returns after it has waited for its processes; allow the
		// kernel a moment to reap, bounded.
		var left []string
		for i := 0; i < 50; i++ {
			if left = children(t); len(left) == 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(left) > 0 {
			t.Errorf("cancel after %v: processes left running: %v\nlog:\n%s", cancelAfter, left, log.String())
		}
		if !strings.Contains(log.String(), "service pid") {
			t.Fatalf("cancel after %v: no service process was started:\n%s", cancelAfter, log.String())
		}
		addrs := addr.FindAllStringSubmatch(log.String(), -1)
		if len(addrs) == 0 {
			t.Fatalf("cancel after %v: the log names no address:\n%s", cancelAfter, log.String())
		}
		for _, a := range addrs {
			if c, err := net.DialTimeout("tcp", a[1], 200*time.Millisecond); err == nil {
				c.Close()
				t.Errorf("cancel after %v: %s still accepts connections after the run", cancelAfter, a[1])
			}
		}
	}
}
