//go:build integration

package brokers

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// workerEnv makes the test binary a worker process (WorkerMain), as the
// hidden once broker-worker command is for once live.
const workerEnv = "ONCE_BROKERS_WORKER"

// runOn runs one planned run of a catalog scenario on the package's
// shared server of kind (reached by --broker-url), and returns it with
// the run's evidence. It checks that no worker process is left.
func runOn(t *testing.T, kind Kind, name string, sem sim.Semantics, params map[string]string, seed uint64, variant string) (runs.Run, string) {
	t.Helper()
	srv := needServer(t, kind)
	sc, ps := planned(t, name, sem, params, seed)
	var ev bytes.Buffer
	start := time.Now()
	done, err := RunAll(context.Background(), Options{Broker: string(kind), URL: srv.URL, Variant: variant, Deadline: time.Minute,
		Worker: []string{os.Args[0]}, WorkerEnv: []string{workerEnv + "=1"}, Stderr: &ev}, sc, ps)
	if err != nil {
		t.Fatalf("%s on %s: %v\n%s", name, kind, err, ev.String())
	}
	t.Logf("%s %s %v seed %d %s: %s in %s", name, sem.Alias(), params, seed, variant, done[0].Outcome.Status, time.Since(start).Round(time.Millisecond))
	servers := map[int]bool{}
	shared.Lock()
	for _, s := range shared.servers {
		for _, p := range s.Pids() {
			servers[p] = true
		}
	}
	shared.Unlock()
	for _, p := range childPids() {
		if !servers[p] {
			t.Errorf("a process %d of the run is left", p)
		}
	}
	return done[0], ev.String()
}

// effectsOf is op's effect count.
func effectsOf(r runs.Run, op int) int32 { return r.Outcome.Ops[op-1].Effects }

// TestIntegrationRabbitMQConsumerCrash: on seed 1 the decider kills the
// consumer after it charged op-2 and before its ack; RabbitMQ redelivers
// op-2 to the restarted consumer with Redelivered=true. A dedup set in the
// process's memory is gone with it: op-2 is charged twice (violated). A
// dedup row written in the charge's transaction survives: once (holds).
func TestIntegrationRabbitMQConsumerCrash(t *testing.T) {
	mem, ev := runOn(t, RabbitMQ, "idempotent-consumer-dedup", sim.Idempotent, nil, 1, "dedup-memory")
	if mem.Outcome.Status != sim.Violated || effectsOf(mem, 2) != 2 {
		t.Errorf("dedup-memory: %s with op-2 charged %d times, want violated, twice\n%s", mem.Outcome.Status, effectsOf(mem, 2), ev)
	}
	for _, want := range []string{"consumer killed (SIGKILL", "op-2 delivered again (delivery 2, Redelivered=true", "gateway: op-2 charged (delivery 2)"} {
		if !strings.Contains(ev, want) {
			t.Errorf("dedup-memory's evidence lacks %q:\n%s", want, ev)
		}
	}
	db, ev := runOn(t, RabbitMQ, "idempotent-consumer-dedup", sim.Idempotent, nil, 1, "dedup-database")
	if db.Outcome.Status != sim.Held {
		t.Errorf("dedup-database: %s (%s), want held\n%s", db.Outcome.Status, db.Outcome.Why, ev)
	}
	for _, want := range []string{"Redelivered=true", "op-2 delivery 2 found in the dedup table"} {
		if !strings.Contains(ev, want) {
			t.Errorf("dedup-database's evidence lacks %q:\n%s", want, ev)
		}
	}
	for op := 1; op <= 5; op++ {
		if effectsOf(db, op) != 1 {
			t.Errorf("dedup-database: op-%d charged %d times", op, effectsOf(db, op))
		}
	}
}

// TestIntegrationRedisLockExpiry: a worker stopped (SIGSTOP) past the
// lock's PX while it holds a job's lock lets Redis grant the lock to the
// other worker: two holders. Without fencing both write (violated); with
// fencing the zombie's lower token is refused (holds). Which worker wins
// a job's lock is a real race, so the seeds are tried until a pause hit a
// holder, and at least one must.
func TestIntegrationRedisLockExpiry(t *testing.T) {
	for _, fencing := range []string{"off", "on"} {
		paused := 0
		for seed := uint64(1); seed <= 6 && paused == 0; seed++ {
			r, ev := runOn(t, Redis, "redis-lock-expiry", sim.Idempotent, map[string]string{"fencing": fencing}, seed, "")
			if !strings.Contains(ev, "stopped (SIGSTOP") {
				if r.Outcome.Status != sim.Held {
					t.Errorf("fencing=%s seed %d: no pause, yet %s\n%s", fencing, seed, r.Outcome.Why, ev)
				}
				continue
			}
			paused++
			if !strings.Contains(ev, "two holders of lock job") {
				t.Errorf("fencing=%s seed %d: a holder paused past the PX, but no second holder shown\n%s", fencing, seed, ev)
			}
			switch {
			case fencing == "off" && r.Outcome.Status != sim.Violated:
				t.Errorf("fencing=off seed %d: %s, want the zombie's write charged twice\n%s", seed, r.Outcome.Status, ev)
			case fencing == "on" && (r.Outcome.Status != sim.Held || !strings.Contains(ev, "refused (fencing")):
				t.Errorf("fencing=on seed %d: %s, want the zombie's token refused\n%s", seed, r.Outcome.Status, ev)
			}
		}
		if paused == 0 {
			t.Errorf("fencing=%s: no seed of 1..6 paused a lock holder", fencing)
		}
	}
}
