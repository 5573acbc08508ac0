//go:build integration

package brokers

import (
	"context"
	"os"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
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
		if try == 120 {
			t.Fatalf("the durable queue is not back 60 s after the broker's restart: %v", err)
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
