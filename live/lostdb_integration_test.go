//go:build integration

package live

import (
	"context"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// tcpRelay forwards connections from a port of 127.0.0.1 to target until
// cut, which closes the port and every connection: a database that
// disappears.
type tcpRelay struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newRelay(t *testing.T, target string) *tcpRelay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &tcpRelay{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			r.mu.Lock()
			r.conns = append(r.conns, c, d)
			r.mu.Unlock()
			go func() { io.Copy(d, c); d.Close() }()
			go func() { io.Copy(c, d); c.Close() }()
		}
	}()
	t.Cleanup(r.cut)
	return r
}

func (r *tcpRelay) cut() {
	r.ln.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
}

// A database that disappears in the middle of a run fails it within
// seconds, with one line — not at the deadline.
func TestIntegrationLostDatabase(t *testing.T) {
	dsn := postgresDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	relay := newRelay(t, u.Host)
	u.Host = relay.ln.Addr().String()
	sc, err := scenarios.Lookup("double-billing")
	if err != nil {
		t.Fatal(err)
	}
	// Ops enough that the run (on its jumping clock) is still going when
	// the database goes, 300 ms after the client starts.
	cfg, err := sc.Config(scenarios.Settings{Semantics: sim.Idempotent, Ops: 400, Faults: sc.Faults})
	if err != nil {
		t.Fatal(err)
	}
	started := &lineTrigger{line: "fault layer client→service listening", do: func() { time.AfterFunc(300*time.Millisecond, relay.cut) }}
	_, err = Run(context.Background(), Options{Config: cfg, Chooser: sim.NewRandom(1), DSN: u.String(), Binary: onceBinary,
		Tick: liveTick, Deadline: 2 * time.Minute, Log: started})
	// The watcher's line, not the deadline's unfinished run: the loss
	// was noticed while the run went on.
	if err == nil || !strings.Contains(err.Error(), "lost the database") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("%v, want one line saying the database is lost", err)
	}
}

// lineTrigger is a log that runs do once, when a line holding line is
// written.
type lineTrigger struct {
	line string
	do   func()
	once sync.Once
}

func (l *lineTrigger) Write(p []byte) (int, error) {
	if strings.Contains(string(p), l.line) {
		l.once.Do(l.do)
	}
	return len(p), nil
}
