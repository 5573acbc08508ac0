package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/scenarios"
)

func TestWorkspaceOwners(t *testing.T) {
	for name, want := range map[string]int{"once-live-123-abc": 123, "once-live-abc": 0, "once-live-12x-a": 0, "other-1-2": 0} {
		if got := ownerOfDir(name); got != want {
			t.Errorf("ownerOfDir(%q) = %d, want %d", name, got, want)
		}
	}
	name, err := schemaName(42)
	if err != nil {
		t.Fatal(err)
	}
	if got := ownerOfSchema(name); got != 42 {
		t.Errorf("ownerOfSchema(%q) = %d, want 42", name, got)
	}
	for _, n := range []string{"once_live_0123456789ab", "once_live_42_zzzzzz_ab", "public"} {
		if got := ownerOfSchema(n); got != 0 {
			t.Errorf("ownerOfSchema(%q) = %d: not a schema of this machine's runs", n, got)
		}
	}
}

// The sweep removes the directories of owners that are gone and keeps
// those of live ones (this test process).
func TestSweepTemp(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, fmt.Sprintf("%s%d-a", tempPrefix, os.Getpid()))
	dead := filepath.Join(dir, tempPrefix+"99999999-b") // above any pid_max
	other := filepath.Join(dir, "unrelated")
	for _, d := range []string{mine, dead, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	gone := SweepTemp(dir)
	if len(gone) != 1 || gone[0] != dead {
		t.Fatalf("swept %v, want only %s", gone, dead)
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
}

func TestCheckKey(t *testing.T) {
	for key, ok := range map[string]bool{"pay-op-1": true, strings.Repeat("k", maxKeyLen): true,
		strings.Repeat("k", maxKeyLen+1): false, "with space": false, "tab\t": false, "é": false} {
		if got := checkKey(key) == ""; got != ok {
			t.Errorf("checkKey(%q): accepted %v, want %v (%s)", key, got, ok, checkKey(key))
		}
	}
}

func TestProblemBody(t *testing.T) {
	var p problemDetails
	if err := json.Unmarshal(problemBody(409, "in flight"), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != 409 || p.Title != "Conflict" || p.Detail != "in flight" || p.Type == "" {
		t.Fatalf("%+v", p)
	}
}

// supports configures a scenario and asks Supports.
func supports(t *testing.T, name string, faults map[string]string, params map[string]string) error {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	prof := sc.Faults
	for k, v := range faults {
		if err := prof.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sc.Config(scenarios.Settings{Semantics: sc.Semantics[len(sc.Semantics)-1], Ops: sc.Ops, Faults: prof, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return Supports(cfg, &prof)
}

// A fault live cannot inject is refused, in one line; one it can is not.
func TestSupportsRefusesWhatLiveCannotDo(t *testing.T) {
	for _, c := range []struct {
		scenario string
		faults   map[string]string
		refused  string // "" = supported
	}{
		{"double-billing", map[string]string{"late": "0.5", "pause": "0.2", "crash": "0.2"}, ""},
		{"double-billing", map[string]string{"preempt": "0.3"}, "--preempt"},
		{"concurrent-same-key", map[string]string{"preempt": "0.3"}, ""},
		{"concurrent-same-key", map[string]string{"crash": "0.3"}, "--crash"},
		{"store-outage-fail-closed", nil, ""},
		{"store-outage-fail-closed", map[string]string{"pause": "0.3"}, "--pause"},
		{"mark-after-effect", nil, ""},
		{"two-generals", nil, "live runs the scenarios"},
		{"ambiguous-external-outcome", nil, ""},
		{"ambiguous-external-outcome", map[string]string{"slow": "0.1", "dup": "0.1", "late": "0.1"}, ""},
		{"ambiguous-external-outcome", map[string]string{"crash": "0.2"}, "--crash"},
		{"ambiguous-external-outcome", map[string]string{"pause": "0.2"}, "--pause"},
		{"ambiguous-external-outcome", map[string]string{"preempt": "0.2"}, "--preempt"},
	} {
		err := supports(t, c.scenario, c.faults, nil)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s %v: refused: %v", c.scenario, c.faults, err)
		case c.refused != "" && (err == nil || !errors.Is(err, ErrNotLive) || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s %v: %v, want a refusal naming %s", c.scenario, c.faults, err, c.refused)
		case err != nil && strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: a refusal is one line: %q", c.scenario, err)
		}
	}
}

// The key store's statements on a real (in-process) SQLite database:
// expiry is checked by the DELETE itself, a lease is taken over only when
// stale, and every write is in key_history.
func TestKeyStatements(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	keys := sqlKeys{db}
	row := keyRow{Key: "k", RequestHash: "h", RequestBody: `{"amount":101}`, Op: 1, Status: StatusProcessing, CreatedAtMs: 1000, ExpiresAtMs: 2000, LockedAtMs: 1000}
	if ok, err := keys.Insert(ctx, row); !ok || err != nil {
		t.Fatalf("insert: %v %v", ok, err)
	}
	if err := keys.DeleteExpired(ctx, "k", 1999); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := keys.Get(ctx, "k"); !found {
		t.Fatal("a key that has not expired was deleted")
	}
	for _, c := range []struct {
		now, stale int64
		want       bool
	}{{1500, 1000, false}, {2000, 1000, true}, {2001, 1000, false}} {
		got, err := keys.TakeOver(ctx, "k", c.now, c.stale)
		if err != nil || got != c.want {
			t.Fatalf("take over at %d (stale after %d): %v %v, want %v", c.now, c.stale, got, err, c.want)
		}
	}
	if err := keys.Release(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if got, _ := keys.TakeOver(ctx, "k", 2002, 1000); !got {
		t.Fatal("a released key was not taken over at once")
	}
	if err := keys.Complete(ctx, "k", 201, `{"txn_id":8821}`); err != nil {
		t.Fatal(err)
	}
	if err := keys.DeleteExpired(ctx, "k", 2000); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := keys.Get(ctx, "k"); found {
		t.Fatal("an expired key was kept")
	}
	var writes []string
	rows, err := db.Query(ctx, "SELECT status, deleted FROM key_history ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var st string
		var del int
		rows.Scan(&st, &del)
		writes = append(writes, fmt.Sprintf("%s/%d", st, del))
	}
	// The lease updates touch only locked_at_ms: not a write of the row.
	if got := strings.Join(writes, " "); got != "PROCESSING/0 COMPLETED/0 COMPLETED/1" {
		t.Fatalf("key_history %s", got)
	}
}

// The store gate's scheduler: a request delivered later waits for its
// turn while one delivered before it runs service code, and goes when
// that one waits outside.
func TestActivityTurns(t *testing.T) {
	a := newActivity(newClock())
	first, second := reqID{1, 1}, reqID{1, 2}
	a.enter(first)
	a.enter(second)
	went := make(chan struct{})
	go func() {
		a.waitTurn(second, nil)
		close(went)
	}()
	select {
	case <-went:
		t.Fatal("the later request went while the earlier one ran")
	case <-time.After(50 * time.Millisecond):
	}
	a.set(first, away)
	select {
	case <-went:
	case <-time.After(holdBound):
		t.Fatal("the later request did not go when the earlier one waited outside")
	}
	if busy, _ := a.othersBusy(first); !busy {
		t.Fatal("the second request runs: the first is not alone")
	}
}

// The run's virtual clock stands still while code holds it (a handler
// running, a process starting), runs while the service is frozen, and a
// sleep on it waits out the hold.
func TestClockStandsStillWhileHeld(t *testing.T) {
	c := newClock()
	c.service(true)
	before := c.now()
	time.Sleep(5 * time.Millisecond)
	if after := c.now(); after != before {
		t.Fatalf("held clock moved from %s to %s", before, after)
	}
	stop := make(chan struct{})
	woke := make(chan bool)
	go func() { woke <- c.sleepUntil(before+time.Millisecond, stop, nil) }()
	select {
	case <-woke:
		t.Fatal("a sleep ended while the clock stood still")
	case <-time.After(20 * time.Millisecond):
	}
	c.freeze(1) // a frozen service: the clock runs although held
	if !<-woke {
		t.Fatal("the sleep was stopped, not woken")
	}
	c.freeze(-1)
	c.holdFor(reqID{1, 1})
	c.service(false)
	c.releaseFor(reqID{1, 1})
	if c.busy != 0 || !c.since.IsZero() {
		t.Fatalf("clock still held: busy %d", c.busy)
	}
	c.hold()
	close(stop)
	if c.sleepUntil(c.now()+time.Hour, stop, nil) {
		t.Fatal("a stopped sleep reported it woke")
	}
}
