//go:build integration

package brokers

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oncesim/once/live"
	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
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
	sc, ps := planned(t, name, sem, params, seed)
	return runPlanned(t, kind, sc, ps, variant, seed)
}

// faultSettings are the catalog scenario's settings under sem with params
// and its faults changed by faults ("--loss": "0", …).
func faultSettings(t *testing.T, name string, sem sim.Semantics, params, faults map[string]string) (*scenarios.Scenario, scenarios.Settings) {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: params}
	for k, v := range faults {
		if err := set.Faults.Set(strings.TrimPrefix(k, "--"), v); err != nil {
			t.Fatal(err)
		}
	}
	return sc, set
}

// runFaults is runOn with the scenario's faults changed by faults.
func runFaults(t *testing.T, kind Kind, name string, sem sim.Semantics, params, faults map[string]string, seed uint64) (runs.Run, string) {
	t.Helper()
	sc, set := faultSettings(t, name, sem, params, faults)
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	return runPlanned(t, kind, sc, []live.Planned{{Settings: set, Config: cfg, Chooser: sim.NewRandom(seed), Replay: "once run " + name}}, "", seed)
}

// runPlanned makes the planned run on the package's server of kind.
func runPlanned(t *testing.T, kind Kind, sc *scenarios.Scenario, ps []live.Planned, variant string, seed uint64) (runs.Run, string) {
	t.Helper()
	srv := needServer(t, kind)
	name, sem, params := sc.Name, ps[0].Settings.Semantics, ps[0].Settings.Params
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
// consumer after it charged op-4 and before its ack, as the simulator
// crashes it there; RabbitMQ redelivers op-4 to the restarted consumer
// with Redelivered=true (and op-4's publisher confirm is lost twice: two
// more messages of op-4). A dedup set in the
// process's memory is gone with it: op-4 is charged again (violated). A
// dedup row written in the charge's transaction survives: once (holds).
func TestIntegrationRabbitMQConsumerCrash(t *testing.T) {
	mem, ev := runOn(t, RabbitMQ, "idempotent-consumer-dedup", sim.Idempotent, nil, 1, "dedup-memory")
	if mem.Outcome.Status != sim.Violated || effectsOf(mem, 4) < 2 {
		t.Errorf("dedup-memory: %s with op-4 charged %d times, want violated, at least twice\n%s", mem.Outcome.Status, effectsOf(mem, 4), ev)
	}
	for _, want := range []string{"consumer killed (SIGKILL", "op-4 delivered again (delivery 2, Redelivered=true", "gateway: op-4 charged (delivery 2)",
		"its publisher confirm is lost: the producer publishes again"} {
		if !strings.Contains(ev, want) {
			t.Errorf("dedup-memory's evidence lacks %q:\n%s", want, ev)
		}
	}
	db, ev := runOn(t, RabbitMQ, "idempotent-consumer-dedup", sim.Idempotent, nil, 1, "dedup-database")
	if db.Outcome.Status != sim.Held {
		t.Errorf("dedup-database: %s (%s), want held\n%s", db.Outcome.Status, db.Outcome.Why, ev)
	}
	for _, want := range []string{"Redelivered=true", "op-4 delivery 2 found in the dedup table"} {
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

// TestIntegrationNATSJetStream: nats-msg-id-window on a real JetStream,
// every duration divided by 30. Seed 3 loses op-3's publish ack: retried
// inside the duplicate window the PubAck says Duplicate=true and op-3 is
// shipped once; retried after it (retry=3m → 6 s, the window 4 s) it is
// stored again and shipped twice. Seed 7 stops the subscriber (SIGSTOP)
// past AckWait after shipping op-5: its late ack is accepted and the
// redelivery (NumDelivered 2) ships op-5 again; dedup=msg-id ships once.
// Seed 1 at-least-once kills the subscriber after shipping op-5: ops 6–10
// reach the model's subscriber while it is down, and the driver drops
// them as the simulator does (nats-server held them and would have shipped
// them as delivery 1), so op-10's delivery 2 meets the simulator's crash
// and op-10 ships twice. Each as the simulator does on the same seed.
func TestIntegrationNATSJetStream(t *testing.T) {
	ackLossOnly := map[string]string{"--loss": "0", "--crash": "0", "--pause": "0"}
	pauseOnly := map[string]string{"--loss": "0", "--ack-loss": "0", "--crash": "0"}
	for _, c := range []struct {
		name    string
		sem     sim.Semantics
		params  map[string]string
		faults  map[string]string
		seed    uint64
		op      int
		effects int32
		status  sim.Status
		want    []string
	}{
		{"inside the window", sim.Idempotent, nil, ackLossOnly, 3, 3, 1, sim.Held, []string{"op-3 publish 2: PubAck seq 3 Duplicate=true"}},
		{"after the window", sim.Idempotent, map[string]string{"retry": "3m"}, ackLossOnly, 3, 3, 2, sim.Violated, []string{"the publisher retries after 6s", "op-3 publish 2: PubAck seq", "stored again"}},
		{"a pause past AckWait", sim.Idempotent, nil, pauseOnly, 7, 5, 2, sim.Violated, []string{"subscriber stopped (SIGSTOP", "the ack of delivery 1 (stream seq 5): accepted", "op-5 delivered again (stream seq 5, NumDelivered 2)"}},
		{"dedup=msg-id", sim.Idempotent, map[string]string{"dedup": "msg-id"}, pauseOnly, 7, 5, 1, sim.Held, []string{"subscriber stopped (SIGSTOP", "its Nats-Msg-Id is recorded, acked, not shipped"}},
		{"a crash, and the deliveries while down", sim.AtLeastOnce, nil, nil, 1, 10, 2, sim.Held, []string{"subscriber killed (SIGKILL", "op-10 delivery 1 (stream seq 10) dropped", "op-10 delivered again (stream seq 10, NumDelivered 3)"}},
	} {
		r, ev := runFaults(t, NATS, "nats-msg-id-window", c.sem, c.params, c.faults, c.seed)
		if got := effectsOf(r, c.op); got != c.effects || r.Outcome.Status != c.status {
			t.Errorf("%s: op-%d shipped %d times, %s; want %d, %s\n%s", c.name, c.op, got, r.Outcome.Status, c.effects, c.status, ev)
		}
		for _, w := range c.want {
			if !strings.Contains(ev, w) {
				t.Errorf("%s: the evidence lacks %q:\n%s", c.name, w, ev)
			}
		}
		sc, set := faultSettings(t, "nats-msg-id-window", c.sem, c.params, c.faults)
		simulated, err := runs.Outcome(sc, set, sim.NewRandom(c.seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range simulated.Ops {
			if o.Effects != r.Outcome.Ops[i].Effects {
				t.Errorf("%s: op-%d has %d effects in the simulator, %d on NATS", c.name, i+1, o.Effects, r.Outcome.Ops[i].Effects)
			}
		}
	}
}
