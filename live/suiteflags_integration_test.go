//go:build integration

package live

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIntegrationSuiteFlagsHonest walks every flag of once live --help
// with --suite payments: each is honoured (its effect seen in the suite's
// output) or refused in one line with exit 2 and its reason — none is
// accepted and ignored. The honoured ones run the whole suite against a
// service in the test with --deadline 1ms, so every run is cut at once
// (exit 3, verdict unknown) and the walk takes seconds; the suite's rows
// against real services are TestIntegrationSuitePayments' and
// TestIntegrationSuiteCatchesPlantedBugs'. A flag added to live without
// a case here fails the test.
func TestIntegrationSuiteFlagsHonest(t *testing.T) {
	help, _, code := once(t, "live", "--help")
	if code != 0 {
		t.Fatalf("live --help: exit %d", code)
	}
	catalog, err := filepath.Abs("../scenarios/catalog/double-billing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	target := naiveTarget(t, freeAddr(t)).URL
	// The lost row alone, cut at 1 ms: unknown (exit 3) every time, as a
	// second charge of one payment needs a retry after a timeout. With
	// every row, the duplicates row was at times violated (exit 1) within
	// the millisecond: a copy of a request charged before the cut.
	suite := []string{"live", "--suite", "payments", "--target", target, "--provider-addr", "127.0.0.1:0", "--seeds", "1", "--deadline", "1ms", "--rows", "lost"}
	dead := []string{"live", "--suite", "payments", "--target", "http://127.0.0.1:1"}
	with := func(base []string, more ...string) []string { return append(append([]string(nil), base...), more...) }
	db := "mysql://nowhere" // refused without PostgreSQL; the real one with it
	dbWant, dbCode := "want a postgres:// or postgresql:// URL", 2
	if dsn := os.Getenv("ONCE_TEST_POSTGRES"); dsn != "" {
		db, dbWant, dbCode = dsn, "ledger on PostgreSQL", 3
	}
	cases := map[string][]flagCase{
		"suite":  {{with(suite, "--suite", "nope"), 2, `--suite "nope": want one of payments`}, {with(suite, "--format", "text"), 3, "suite payments · seeds 1"}},
		"target": {{dead, 2, "connection refused"}, {with(dead, "--target", "http://192.0.2.1:8000"), 2, "not a loopback address"}},
		"seed":   {{with(suite, "--seed", "7", "--format", "json"), 3, `"seed": 7`}},
		"seeds":  {{with(suite, "--seeds", "2", "--format", "json"), 3, `"seed": 2`}, {with(dead, "--seeds", "0"), 2, "--seeds 0"}},
		"rows":   {{with(suite, "--rows", "reuse", "--format", "json"), 3, `"row": "reuse"`}, {with(dead, "--rows", "reuse,nope"), 2, `suite payments has no row "nope"`}},
		"format": {{with(suite, "--format", "json"), 3, `"verdict": "unknown"`}, {with(suite, "--format", "text"), 3, "suite verdict: unknown"},
			{with(dead, "--format", "trace"), 2, "--format trace: a suite makes a run per row and seed"}, {with(dead, "--format", "xml"), 2, "--format"}},
		"deadline":      {{suite, 3, "suite verdict: unknown"}, {with(dead, "--deadline", "0s"), 2, "--deadline"}},
		"verbose":       {{with(suite, "-v"), 3, "listening on"}},
		"lang":          {{with(suite, "--lang", "ro"), 3, "verdictul suitei"}, {with(dead, "--lang", "xx"), 2, "--lang"}},
		"check":         {{with(suite, "--check"), 3, "suite verdict: unknown"}},
		"db":            {{with(suite, "--db", db), dbCode, dbWant}},
		"tick":          {{with(suite, "--tick", "2"), 3, "suite verdict"}, {with(dead, "--tick", "0"), 2, "--tick"}},
		"allow-remote":  {{with(suite, "--allow-remote"), 3, "suite verdict"}},
		"provider-addr": {{with(suite, "--provider-addr", "0.0.0.0:0"), 2, "not loopback"}},
		"restart-cmd":   {{with(suite, "--restart-cmd", "true", "--rows", "crash_points"), 3, `crashes by --restart-cmd "true"`}},
		"target-ready":  {{with(dead, "--target-ready", "300ms"), 2, "not ready after --target-ready 300ms: connection refused"}},
		"print-env":     {{with(dead, "--print-env", "--provider-addr", "127.0.0.1:5555"), 0, "ONCE_PROVIDER_URL='http://127.0.0.1:5555'"}},
		"help":          {{with(dead, "--help"), 0, "Usage"}},
		"save":          {{with(dead, "--save", "x.plan"), 2, "--save: a suite makes a run per row and seed"}},
		"replay":        {{with(dead, "--replay", "x.plan"), 2, "--replay: a plan replays one run"}},
		"file":          {{with(dead, "--file", catalog), 2, "--file: the suite names its own"}},
		"broker":        {{with(dead, "--broker", "redis"), 2, "--broker: a suite drives your --target"}},
		"broker-url":    {{with(dead, "--broker-url", "redis://127.0.0.1:1"), 2, "--broker-url: a suite drives your --target"}},
		"variant":       {{with(dead, "--variant", "dedup-memory"), 2, "--variant: a suite drives your --target"}},
	}
	// Each row sets its own scenario, semantics, faults and parameters.
	for flag, value := range map[string]string{"loss": "0.5", "ack-loss": "0.5", "dup": "0.5", "slow": "0.5", "late": "0.5",
		"late-ms": "100", "crash": "0.5", "pause": "0.5", "pause-ms": "100", "preempt": "0.5", "preempt-ms": "100", "ops": "2",
		"semantics": "alo", "set": "key=per-attempt", "max-events": "100", "max-time": "1s"} {
		cases[flag] = []flagCase{{with(dead, "--"+flag, value), 2, "--" + flag + " is set by each row of the suite"}}
	}
	walkFlags(t, help, cases, " with --suite", true)
}
