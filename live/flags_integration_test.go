//go:build integration

package live

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// once runs the built once binary and returns its output and exit code.
func once(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := onceCmd(args...)
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("once %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

// flagCase is what one flag of once live --help does: the arguments that
// use it, the exit code wanted, and a text its output must hold (the
// fault in the trace, the refusal's line).
type flagCase struct {
	args []string
	code int
	want string
}

// TestIntegrationLiveFlagsHonest walks every flag of once live --help:
// each is honoured (its effect is seen in the output) or refused in one
// line with exit 2 — none is accepted and ignored. A flag added to live
// without a case here fails the test.
func TestIntegrationLiveFlagsHonest(t *testing.T) {
	help, _, code := once(t, "live", "--help")
	if code != 0 {
		t.Fatalf("live --help: exit %d", code)
	}
	catalog, err := filepath.Abs("../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(t.TempDir(), "cex.plan")
	if _, errs, code := once(t, "explore", "double-billing", "--semantics", "alo", "--save", plan); code != 0 && code != 1 {
		t.Fatalf("explore --save: exit %d: %s", code, errs)
	}
	db := "mysql://nowhere" // refused without PostgreSQL; the real one with it
	dbWant, dbCode := "want a postgres:// or postgresql:// URL", 2
	if dsn := os.Getenv("ONCE_TEST_POSTGRES"); dsn != "" {
		db, dbWant, dbCode = dsn, "on PostgreSQL", 0
	}
	alo := []string{"live", "double-billing", "--semantics", "alo", "--seed", "1", "--ops", "3", "--format", "trace"}
	with := func(base []string, more ...string) []string { return append(append([]string(nil), base...), more...) }
	cases := map[string][]flagCase{
		"loss":       {{with(alo, "--loss", "0.9"), 0, "DROP(loss)"}},
		"ack-loss":   {{with(alo, "--loss", "0", "--ack-loss", "0.9"), 0, "DROP(loss)"}},
		"dup":        {{with(alo, "--dup", "0.6"), 0, "DUPLICATE"}},
		"slow":       {{with(alo, "--slow", "0.6"), 0, "SLOW"}},
		"late":       {{with(alo, "--late", "0.6", "--late-ms", "40"), 0, "LATE"}},
		"late-ms":    {{with(alo, "--late", "0.6", "--late-ms", "0"), 2, "--late-ms"}},
		"crash":      {{with(alo, "--semantics", "idem", "--crash", "0.9"), 0, "CRASH"}, {with(alo, "--crash", "0.5", "--preempt", "0.5"), 2, "--preempt"}},
		"pause":      {{with(alo, "--pause", "0.9", "--pause-ms", "40"), 0, "PAUSE"}},
		"pause-ms":   {{with(alo, "--pause", "0.6", "--pause-ms", "0"), 2, "--pause-ms"}},
		"preempt":    {{with(alo, "--preempt", "0.5"), 2, "no key store node"}, {[]string{"live", "concurrent-same-key", "--ops", "1", "--preempt", "1", "--format", "trace"}, 0, "PREEMPT"}},
		"preempt-ms": {{[]string{"live", "concurrent-same-key", "--ops", "1", "--preempt", "1", "--preempt-ms", "30", "--format", "trace"}, 0, "PREEMPT"}},
		"check":      {{[]string{"live", "key-reuse-different-payload", "--set", "reuse=overwrite", "--loss", "0", "--ack-loss", "0", "--check"}, 1, "rejected-reuse"}},
		"db":         {{with(alo, "--db", db), dbCode, dbWant}},
		"deadline":   {{with(alo, "--deadline", "0s"), 2, "--deadline"}},
		"file":       {{[]string{"live", "--file", catalog, "--semantics", "idem", "--ops", "2", "--crash", "0.9", "--format", "trace"}, 0, "CRASH"}},
		"format":     {{with(alo[:len(alo)-2], "--format", "json"), 0, `"results"`}, {with(alo[:len(alo)-2], "--format", "xml"), 2, "--format"}},
		"help":       {{[]string{"live", "--help"}, 0, "Usage"}},
		"max-events": {{with(alo, "--max-events", "5", "--format", "text"), 0, "did not finish"}},
		"max-time":   {{with(alo, "--max-time", "30ms", "--format", "text"), 0, "did not finish"}},
		"ops":        {{with(alo, "--ops", "1", "--format", "json"), 0, `"ops": 1`}},
		"replay":     {{[]string{"live", "--replay", plan}, 0, "planned fault(s) hit"}},
		"seed":       {{with(alo, "--seed", "7", "--format", "json"), 0, `"seed": 7`}},
		"semantics":  {{with(alo, "--semantics", "amo", "--format", "text"), 0, "at-most-once"}},
		"set":        {{[]string{"live", "concurrent-same-key", "--ops", "1", "--set", "lock=unique-insert", "--format", "json"}, 0, `"lock": "unique-insert"`}},
		"tick":       {{with(alo, "--tick", "0"), 2, "--tick"}, {with(alo, "--tick", "2", "--format", "text"), 0, "double-billing"}},
		"verbose":    {{with(alo, "--verbose"), 0, "service pid"}},
		"lang":       {{with(alo, "--lang", "xx"), 2, "--lang"}},
		// --target against a real service: TestIntegrationTargetExamples.
		"target": {{with(alo, "--target", "http://192.0.2.1:8000"), 2, "not a loopback address"}, {with(alo, "--target", "http://127.0.0.1:9", "--crash", "0.5"), 2, "give --restart-cmd"},
			{with(alo, "--target", "http://127.0.0.1:1"), 2, "connection refused"}, {with(alo, "--target", "http://127.0.0.1:99999"), 2, "port 99999"}},
		"allow-remote":  {{with(alo, "--allow-remote"), 2, "go with --target"}},
		"provider-addr": {{with(alo, "--provider-addr", "127.0.0.1:1"), 2, "go with --target"}, {with(alo, "--target", "http://127.0.0.1:9", "--provider-addr", "0.0.0.0:0"), 2, "not loopback"}},
		// --restart-cmd honoured against a real service: TestIntegrationTargetRestart.
		"restart-cmd": {{with(alo, "--restart-cmd", "true"), 2, "goes with --target"}, {with(alo, "--target", "http://127.0.0.1:9", "--restart-cmd", ""), 2, `--restart-cmd "": an empty value`},
			{with(alo, "--target", "http://127.0.0.1:9", "--restart-cmd", "true"), 2, "--crash is 0"}},
		"target-ready": {{with(alo, "--target-ready", "1s"), 2, "with --target"}, {with(alo, "--target", "http://127.0.0.1:1", "--target-ready", "400ms"), 2, "not ready after --target-ready 400ms: connection refused"}},
		// --suite against real services: TestIntegrationSuitePayments.
		"suite": {{with(alo[:2], "--suite", "payments"), 2, "goes with --target"}, {[]string{"live", "--suite", "payments", "--target", "http://127.0.0.1:1", "--loss", "0.5"}, 2, "--loss is set by each row"}},
		"rows":  {{with(alo, "--rows", "lease"), 2, "--rows goes with --suite"}},
		"seeds": {{with(alo, "--seeds", "2"), 2, "--seeds goes with --suite"}, {[]string{"live", "--suite", "payments", "--target", "http://127.0.0.1:1", "--seeds", "0"}, 2, "--seeds 0"}},
		// --save and its live replay: TestIntegrationLiveSaveReplay.
		"save": {{with(alo, "--semantics", "idem", "--set", "key=per-attempt", "--save", filepath.Join(t.TempDir(), "live.plan"), "--format", "text"), 0, "replay: once live --replay "},
			{[]string{"live", "idempotent-producer-retry", "--broker", "kfake", "--save", "x.plan"}, 2, "--save: a broker run"}},
		"print-env": {{[]string{"live", "--print-env", "--provider-addr", "127.0.0.1:5555"}, 0, "ONCE_PROVIDER_URL='http://127.0.0.1:5555'"}},
		// The brokers: kfake runs in-process (no server to start); the
		// servers' own runs are brokers/' integration tests.
		"broker": {{[]string{"live", "idempotent-producer-retry", "--broker", "kfake", "--semantics", "idem", "--seed", "1", "--ops", "3"}, 0, "not Apache Kafka"},
			{with(alo, "--broker", "redis"), 2, "its live.brokers lists none"}},
		"broker-url": {{with(alo, "--broker-url", "redis://127.0.0.1:1"), 2, "go with --broker"},
			{[]string{"live", "redis-lock-expiry", "--broker", "redis", "--broker-url", "redis://192.0.2.1:6379"}, 2, "not loopback"}},
		"variant": {{with(alo, "--variant", "dedup-memory"), 2, "go with --broker"},
			{[]string{"live", "idempotent-consumer-dedup", "--broker", "rabbitmq", "--semantics", "idem", "--variant", "nope"}, 2, "--variant nope: want one of"}},
	}
	walkFlags(t, help, cases, "", false)
}

// walkFlags runs, for every flag once live --help (help) lists, the cases
// given for it, a parallel subtest a flag: each case's exit code, and its
// want in the output; a refusal (exit 2) is one line on stderr and, with
// quiet, nothing on stdout. A flag with no case fails the test; setting
// ("" or " with --suite") says where the cases are about.
func walkFlags(t *testing.T, help string, cases map[string][]flagCase, setting string, quiet bool) {
	flag := regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z-]+)`)
	for _, m := range flag.FindAllStringSubmatch(help, -1) {
		name := m[1]
		cs, ok := cases[name]
		if !ok {
			t.Errorf("--%s is in live --help but the test does not know what it does%s: add a case", name, setting)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each case a process of its own: two at a time on 2 cores
			for _, c := range cs {
				out, errs, code := once(t, c.args...)
				if code != c.code || !strings.Contains(out+errs, c.want) {
					t.Errorf("--%s: once %s: exit %d (want %d), output has %q: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(c.args, " "),
						code, c.code, c.want, strings.Contains(out+errs, c.want), out, errs)
				}
				if code == 2 && (strings.Count(strings.TrimSpace(errs), "\n") > 0 || quiet && out != "") {
					t.Errorf("--%s: a refusal is one line on stderr (and, here, nothing on stdout), got:\n%s\n%s", name, out, errs)
				}
			}
		})
	}
}
