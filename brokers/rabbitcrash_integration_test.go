//go:build integration

package brokers

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/sim"
)

// TestIntegrationRabbitMQBrokerCrash pins what a broker crash does to a
// durable queue (docs/broker-agreement.md's differences): three
// persistent messages, confirmed; the first delivered and not acked; the
// node killed with SIGKILL and restarted on its directory. All three come
// back, every one with Redelivered=true — the two never delivered too: a
// consumer must not read the flag as "I processed this". A server of its
// own (the package's shared one is not killed); about two RabbitMQ boots.
func TestIntegrationRabbitMQBrokerCrash(t *testing.T) {
	needInstalled(t, RabbitMQ)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := Start(ctx, RabbitMQ, ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(srv.Dir); !os.IsNotExist(err) {
			t.Errorf("the server's directory %s is left", srv.Dir)
		}
	}()
	conn, err := amqp.Dial(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	const q = "once-crash"
	if _, err := ch.QueueDeclare(q, true, false, false, false, nil); err != nil {
		t.Fatal(err)
	}
	if err := ch.Confirm(false); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"1", "2", "3"} {
		dc, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", q, true, false, amqp.Publishing{DeliveryMode: amqp.Persistent, Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := dc.WaitContext(ctx); err != nil || !ok {
			t.Fatalf("message %s's confirm: %v %v", body, ok, err)
		}
	}
	first, ok, err := ch.Get(q, false) // delivered, never acked
	if err != nil || !ok || string(first.Body) != "1" || first.Redelivered {
		t.Fatalf("the first delivery: %q redelivered %v, ok %v, %v", first.Body, first.Redelivered, ok, err)
	}
	// queue.declare-ok comes before Mnesia's log holds the declaration's
	// decision (undecided); a SIGKILL in between loses the queue. This
	// test is about a queue whose record is durable, so it makes sure of
	// that first (bounded; at most about 2 s, disk_log's write cache).
	waitOnDisk(t, filepath.Join(srv.Dir, "mnesia"), q, 30*time.Second)
	if err := srv.CrashAndRestart(ctx, nil); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	conn, err = amqp.Dial(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// RabbitMQ answers on its port before it has recovered every durable
	// queue (CI saw "NOT_FOUND - no queue" right after the restart): wait,
	// bounded, for the queue to be back; a 404 closes the channel, so each
	// look takes a new one.
	for try := 0; ; try++ {
		if ch, err = conn.Channel(); err != nil {
			t.Fatal(err)
		}
		if _, err = ch.QueueDeclarePassive(q, true, false, false, false, nil); err == nil {
			break
		}
		if try == 240 { // 120 s: CI saw more than 60 under load
			t.Fatalf("the durable queue is not back 120 s after the broker's restart (its record in Mnesia's files: %v): %v; the broker's log ends: %s",
				onDisk(filepath.Join(srv.Dir, "mnesia"), q), err, srv.logTail())
		}
		time.Sleep(500 * time.Millisecond)
	}
	var got []string
	for {
		d, ok, err := ch.Get(q, true)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, string(d.Body))
		if !d.Redelivered {
			t.Errorf("message %s after the broker's crash: Redelivered=false", d.Body)
		}
	}
	if len(got) != 3 {
		t.Errorf("after the broker's crash the queue holds %v, want all three messages", got)
	}
}

// waitOnDisk waits, at most limit, for name to be in Mnesia's files
// under dir (onDisk) and for every transaction in Mnesia's log to have
// its decision there (undecided).
func waitOnDisk(t *testing.T, dir, name string, limit time.Duration) {
	t.Helper()
	began := time.Now()
	deadline := began.Add(limit)
	for {
		if onDisk(dir, name) && undecided(dir) == 0 {
			t.Logf("queue %s durable in Mnesia's files %s after its declare-ok was awaited", name, time.Since(began).Round(time.Millisecond))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue %s is not durable in Mnesia's files under %s after %s (its name there: %v, transactions without their decision: %d)",
				name, dir, limit, onDisk(dir, name), undecided(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestIntegrationRabbitMQBrokerCrashRun: rabbitmq-broker-crash alo on
// seed 18 on a real node of the run's own: the simulator crashes the
// durable queue after op-2's publish is on disk and before its confirm;
// the driver SIGKILLs the node once the confirm came and restarts it on
// its directory. The producer publishes op-2 again (a second copy), op-1
// (delivered, billed, not acked) comes back Redelivered=true and is
// billed again. The verdict is the simulator's (which bills op-1 and op-2
// twice); the op-by-op counts are logged where they differ. One RabbitMQ
// boot and one restart; nothing is left.
func TestIntegrationRabbitMQBrokerCrashRun(t *testing.T) {
	needInstalled(t, RabbitMQ)
	sc, ps := planned(t, "rabbitmq-broker-crash", sim.AtLeastOnce, nil, 18)
	simulated, err := runs.Outcome(sc, ps[0].Settings, sim.NewRandom(18), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ev bytes.Buffer
	// The driver kills the node only once the queue's declaration is
	// decided in Mnesia's log: a lost queue (errQueueLost) fails the test.
	done, err := RunAll(context.Background(), Options{Broker: string(RabbitMQ), Deadline: CrashRunDeadline,
		Worker: []string{os.Args[0]}, WorkerEnv: []string{workerEnv + "=1"}, Stderr: &ev}, sc, ps)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.String())
	}
	got := done[0].Outcome
	if got.Status != simulated.Status {
		t.Errorf("verdict %s on RabbitMQ, %s in the simulator", got.Status, simulated.Status)
	}
	// Op by op the counts may differ by one where crashes fall close
	// together in real time (docs/broker-agreement.md: seed 2's op-1, and
	// CI saw seed 18's op-2 billed once): logged, and measured over 20
	// seeds by make broker-agreement, not asserted on one.
	for i, s := range simulated.Ops {
		if got.Ops[i].Effects != s.Effects {
			t.Logf("op-%d billed %d times on RabbitMQ, %d in the simulator", i+1, got.Ops[i].Effects, s.Effects)
		}
	}
	if simulated.Ops[1].Effects != 2 {
		t.Errorf("the simulator bills op-2 %d times, want the retry's second copy billed too", simulated.Ops[1].Effects)
	}
	for _, want := range []string{"the broker crashes before its confirm: SIGKILL", "broker restarted on its directory", "Redelivered=true"} {
		if !strings.Contains(ev.String(), want) {
			t.Errorf("the evidence lacks %q:\n%s", want, ev.String())
		}
	}
	for _, p := range childPids() {
		shared.Lock()
		mine := false
		for _, s := range shared.servers {
			mine = mine || slices.Contains(s.Pids(), p)
		}
		shared.Unlock()
		if !mine {
			t.Errorf("a process %d of the run is left", p)
		}
	}
}
