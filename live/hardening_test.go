package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/sim"
)

// The provider listens on loopback unless --allow-remote: every interface
// (0.0.0.0, ::, ":PORT") and outside addresses are refused; an address a
// shell would read is refused even with --allow-remote.
func TestCheckListenAddr(t *testing.T) {
	for _, c := range []struct {
		addr   string
		remote bool
		want   string // "" = accepted
	}{
		{"127.0.0.1:47110", false, ""},
		{"127.0.0.1:0", false, ""},
		{"localhost:5555", false, ""},
		{"[::1]:5555", false, ""},
		{"0.0.0.0:5555", false, "would listen on every interface, not loopback; give --allow-remote"},
		{":5555", false, "would listen on every interface"},
		{"[::]:5555", false, "would listen on every interface"},
		{"192.0.2.1:5555", false, "would listen on 192.0.2.1, not loopback"},
		{"provider.example:5555", false, "would listen on provider.example"},
		{"0.0.0.0:5555", true, ""},
		{"provider.example:5555", true, ""},
		{"127.0.0.1:99999", false, `port "99999": want 0 to 65535`},
		{"127.0.0.1:-1", false, "want 0 to 65535"},
		{"127.0.0.1:+80", false, "want 0 to 65535"},
		{"127.0.0.1", false, "want HOST:PORT"},
		{"$(touch pwned):5555", true, "want an IP address or a host name"},
		{"`touch pwned`:5555", true, "want an IP address or a host name"},
		{"a;touch pwned:5555", true, "want an IP address or a host name"},
		{"a;b:5555", true, "want an IP address or a host name"},
		{"a b:5555", true, "want an IP address or a host name"},
		{"'x':5555", true, "want an IP address or a host name"},
		{"-x:5555", true, "want an IP address or a host name"},
	} {
		err := CheckListenAddr(c.addr, c.remote)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckListenAddr(%q, %v): %v, want accepted", c.addr, c.remote, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckListenAddr(%q, %v): %v, want %q", c.addr, c.remote, err, c.want)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Errorf("CheckListenAddr(%q): not one line: %q", c.addr, err)
		}
	}
}

// --print-env's value is single-quoted: a quote inside is closed, escaped
// and reopened; the shell reads nothing else in it.
func TestShellQuoteAndEnvLine(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:1": `'http://127.0.0.1:1'`,
		"a'b":                `'a'\''b'`,
		"$(touch pwned)":     `'$(touch pwned)'`,
		"`id`; rm x":         "'`id`; rm x'",
		"":                   `''`,
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	if got, want := EnvLine("127.0.0.1:5555"), "export ONCE_PROVIDER_URL='http://127.0.0.1:5555'"; got != want {
		t.Errorf("EnvLine = %s, want %s", got, want)
	}
}

// --target: a port out of range is refused at once; a password in the URL
// never reaches a message.
func TestCheckTargetPortAndPassword(t *testing.T) {
	for _, c := range []struct{ target, want string }{
		{"http://127.0.0.1:99999", "port 99999: want 1 to 65535"},
		{"http://127.0.0.1:0", "port 0: want 1 to 65535"},
		{"http://u:hunter2@192.0.2.1:8000/", "192.0.2.1 is not a loopback address"},
		{"http://u:hunter2@:8000/", "want an http:// URL"},
		{"ftp://u:hunter2@127.0.0.1/", "want an http:// URL"},
	} {
		err := CheckTarget(c.target, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CheckTarget(%q): %v, want %q and no password", c.target, err, c.want)
		}
	}
	if err := CheckTarget("http://u:hunter2@127.0.0.1:8000", false); err != nil {
		t.Errorf("a loopback target with a password: %v", err)
	}
	for in, want := range map[string]string{
		"http://u:hunter2@127.0.0.1:8000/x": "http://u:***@127.0.0.1:8000/x",
		"http://u@127.0.0.1:8000":           "http://u@127.0.0.1:8000",
		"http://127.0.0.1:8000":             "http://127.0.0.1:8000",
		"http://u:hunter2@[::1%zz":          "***@[::1%zz",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// pgx's connection error puts its cause on the lines after "failed to
// connect to …:": the one-line message keeps it, said once.
func TestFirstLineKeepsTheCause(t *testing.T) {
	err := errors.New("failed to connect to `user=postgres database=oncedb`:\n\t127.0.0.1:1 (127.0.0.1): dial error: dial tcp 127.0.0.1:1: connect: connection refused\n\t127.0.0.1:1 (127.0.0.1): dial error: dial tcp 127.0.0.1:1: connect: connection refused")
	got := firstLine(err)
	want := "failed to connect to `user=postgres database=oncedb`: 127.0.0.1:1 (127.0.0.1): dial error: dial tcp 127.0.0.1:1: connect: connection refused"
	if got != want {
		t.Errorf("firstLine = %q\nwant %q", got, want)
	}
	if got := firstLine(errors.New("one line")); got != "one line" {
		t.Errorf("firstLine of one line = %q", got)
	}
}

// The --restart-cmd log is cut whenever it passes its cap, keeping the
// output's tail for the error message; removed, nothing is left. Here the
// test writes through a handle of its own, as the command does through
// the file it inherits.
func TestRestartLogBounded(t *testing.T) {
	dir := t.TempDir()
	const capBytes = 1 << 20
	l, err := newRestartLog(dir, capBytes)
	if err != nil {
		t.Fatal(err)
	}
	if base := filepath.Base(l.f.Name()); ownerOfLog(base) != os.Getpid() {
		t.Errorf("log %s: not named after its owner, so a sweep would not find it", base)
	}
	w, err := os.OpenFile(l.f.Name(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{0}, 64<<10)
	var before, after runtimeAlloc
	before.read()
	for i := 0; i < 256; i++ { // 16 MiB
		if _, err := w.Write(chunk); err != nil {
			t.Fatal(err)
		}
		l.trim()
		if fi, _ := l.f.Stat(); fi.Size() > capBytes+int64(len(chunk)) {
			t.Fatalf("log at %d bytes after %d writes: past its cap of %d", fi.Size(), i+1, capBytes)
		}
	}
	fmt.Fprint(w, "\nrestart failed: port in use\n")
	w.Close()
	l.trim()
	out := l.last()
	after.read()
	if len(out) > maxOutput || !bytes.HasSuffix(out, []byte("restart failed: port in use\n")) {
		t.Errorf("last: %d bytes ending %q; want at most %d ending with the last line", len(out), out[max(0, len(out)-40):], maxOutput)
	}
	if got := lastLine(out); got != `: "restart failed: port in use"` {
		t.Errorf("lastLine = %s", got)
	}
	if grew := after.total - before.total; grew > 4<<20 {
		t.Errorf("trimming 16 MiB of output allocated %d bytes: it reads more than the tail", grew)
	}
	l.remove()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A --restart-cmd log whose owner is gone is swept like a run's
// temporary directory; this process's own is kept.
func TestSweepTempTakesRestartLogs(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, fmt.Sprintf("%s%d-1.log", restartLogPrefix, os.Getpid()))
	dead := filepath.Join(dir, restartLogPrefix+"99999999-2.log") // above any pid_max
	other := filepath.Join(dir, restartLogPrefix+"notes.txt")
	for _, f := range []string{mine, dead, other} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if gone := SweepTemp(dir); len(gone) != 1 || gone[0] != dead {
		t.Fatalf("swept %v, want only %s", gone, dead)
	}
	for _, f := range []string{mine, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// A command's output reaches the terminal with its control characters
// escaped.
func TestPrintableEscapesControls(t *testing.T) {
	for in, want := range map[string]string{
		"restarted: pid 42":   "restarted: pid 42",
		"a\tb":                "a\tb",
		"\x00\x00x":           `\x00\x00x`,
		"\x1b]0;pwned\x07ok":  `\x1b]0;pwned\aok`,
		"caf\u00e9 \u2713 ok": "caf\u00e9 \u2713 ok",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// A loopback target that answers a redirect does not get the payment sent
// where it points: the fault layer relays no redirect and ends the run
// with one line naming it.
func TestProxyFollowsNoRedirect(t *testing.T) {
	var elsewhere atomic.Int64
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer away.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusFound, http.StatusPermanentRedirect, http.StatusMovedPermanently} {
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, away.URL+"/steal", code)
		}))
		p, failed := testProxy(t, target.URL)
		res, ok := p.deliver(httptest.NewRequest(http.MethodPost, PathPayments, nil), sim.Message{Op: 1, Attempt: 1}, []byte(`{"amount":1}`), 0)
		target.Close()
		if ok {
			t.Errorf("%d: relayed %d to the client, want no answer handed on", code, res.code)
		}
		if err := failed(); err == nil || !strings.Contains(err.Error(), "once follows no redirect") || !strings.Contains(err.Error(), away.URL+"/steal") {
			t.Errorf("%d: the run was told %v; want the redirect named", code, err)
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect's address got %d request(s)", n)
	}
}

// A target that stops listening mid-run (no --restart-cmd to bring it
// back) ends the run with "connection refused", not lost requests until
// the deadline; before the run, a target nobody listens on is refused
// within seconds.
func TestRefusedTargetNamed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://u:hunter2@" + ln.Addr().String()
	ln.Close()
	p, failed := testProxy(t, url)
	p.FailRefused = true
	if _, ok := p.deliver(httptest.NewRequest(http.MethodPost, PathPayments, nil), sim.Message{Op: 1, Attempt: 1}, nil, 0); ok {
		t.Fatal("delivered to a closed port")
	}
	if err := failed(); err == nil || !strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the run was told %v; want connection refused, no password", err)
	}
	began := time.Now()
	err = Reachable(context.Background(), url)
	if err == nil || !strings.Contains(err.Error(), "connection refused: nothing listens on "+ln.Addr().String()) || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("reachable: %v", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("reachable took %s to say so", took)
	}
	up := httptest.NewServer(http.NotFoundHandler())
	defer up.Close()
	if err := Reachable(context.Background(), up.URL); err != nil {
		t.Errorf("Reachable(%s): %v", up.URL, err)
	}
}

// testProxy is a client → service fault layer to target with no faults
// drawn, and the first error it ended the run with.
func testProxy(t *testing.T, target string) (*Proxy, func() error) {
	t.Helper()
	cfg := doubleBilling(t, sim.Idempotent, nil)
	dec := NewDecider(cfg.Topology, cfg.Network.(*network.Network), sim.NewRandom(1), nil)
	var mu sync.Mutex
	var got error
	p := &Proxy{Decider: dec, Inside: true, Target: func() string { return target },
		Client: &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}, CheckRedirect: noRedirect, Timeout: 5 * time.Second},
		Fail: func(err error) {
			mu.Lock()
			defer mu.Unlock()
			if got == nil {
				got = err
			}
		}}
	return p, func() error {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// runtimeAlloc is the bytes this process allocated so far.
type runtimeAlloc struct{ total uint64 }

func (a *runtimeAlloc) read() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	a.total = m.TotalAlloc
}
