package main

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestLiveHostileInput is once live's table of hostile input (issue 35):
// each case is refused with exit 2 and one line holding want, nothing on
// stdout, and no line naming what must stay hidden (a password). Nothing
// here starts a server or a process: every case is refused before.
func TestLiveHostileInput(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port nobody listens on once closed
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	idem := []string{"live", "double-billing", "--semantics", "idem", "--seed", "1"}
	target := append(append([]string(nil), idem...), "--target", "http://127.0.0.1:"+strings.Split(closed, ":")[1])
	with := func(base []string, more ...string) []string { return append(append([]string(nil), base...), more...) }
	for _, c := range []struct {
		name   string
		args   []string
		want   string
		hidden string
	}{
		{"provider on every interface", with(target, "--provider-addr", "0.0.0.0:0"), "would listen on every interface, not loopback; give --allow-remote", ""},
		{"provider on :PORT", with(target, "--provider-addr", ":47111"), "would listen on every interface", ""},
		{"provider on ::", with(target, "--provider-addr", "[::]:47111"), "would listen on every interface", ""},
		{"provider on an outside address", with(target, "--provider-addr", "192.0.2.1:47111"), "would listen on 192.0.2.1, not loopback", ""},
		{"provider port out of range", with(target, "--provider-addr", "127.0.0.1:70000"), `port "70000": want 0 to 65535`, ""},
		{"provider with no port", with(target, "--provider-addr", "127.0.0.1"), "want HOST:PORT", ""},
		{"print-env on every interface", []string{"live", "--print-env", "--provider-addr", "0.0.0.0:5555"}, "would listen on every interface", ""},
		{"print-env command substitution", []string{"live", "--print-env", "--allow-remote", "--provider-addr", "$(touch pwned):5555"}, "want an IP address or a host name", ""},
		{"print-env backticks", []string{"live", "--print-env", "--allow-remote", "--provider-addr", "`touch pwned`:5555"}, "want an IP address or a host name", ""},
		{"print-env semicolon", []string{"live", "--print-env", "--allow-remote", "--provider-addr", "x;touch pwned:5555"}, "want an IP address or a host name", ""},
		{"target port 99999", with(idem, "--target", "http://127.0.0.1:99999"), "port 99999: want 1 to 65535", ""},
		{"target port 0", with(idem, "--target", "http://127.0.0.1:0"), "port 0: want 1 to 65535", ""},
		{"target password masked", with(idem, "--target", "http://pay:hunter2@192.0.2.1:8000"), "http://pay:***@192.0.2.1:8000: 192.0.2.1 is not a loopback address", "hunter2"},
		{"target password masked, bad URL", with(idem, "--target", "gopher://pay:hunter2@127.0.0.1:8000"), "want an http:// URL", "hunter2"},
		{"target refused", target, "connection refused: nothing listens on " + closed, ""},
		{"target refused, password masked", with(idem, "--target", "http://pay:hunter2@"+closed), "connection refused", "hunter2"},
	} {
		began := time.Now()
		code, stdout, stderr := runOnce(c.args...)
		took := time.Since(began)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: once %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.name, strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
		if c.hidden != "" && strings.Contains(stdout+stderr, c.hidden) {
			t.Errorf("%s: the output shows %q: %s", c.name, c.hidden, stderr)
		}
		if took > 5*time.Second { // a liveness bound: refused at once, not after the run's deadline
			t.Errorf("%s: refused after %s", c.name, took)
		}
	}
}

// --print-env prints the provider's URL shell-quoted, for eval.
func TestLivePrintEnvQuoted(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"live", "--print-env"}, "export ONCE_PROVIDER_URL='http://127.0.0.1:47110'\n"},
		{[]string{"live", "--print-env", "--provider-addr", "[::1]:5555"}, "export ONCE_PROVIDER_URL='http://[::1]:5555'\n"},
		{[]string{"live", "--print-env", "--allow-remote", "--provider-addr", "provider.example:5555"}, "export ONCE_PROVIDER_URL='http://provider.example:5555'\n"},
	} {
		code, stdout, stderr := runOnce(c.args...)
		if code != 0 || stdout != c.want {
			t.Errorf("once %s: exit %d, stdout %q (want %q), stderr %q", strings.Join(c.args, " "), code, stdout, c.want, stderr)
		}
	}
}
