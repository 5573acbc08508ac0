//go:build integration

package brokers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestIntegrationNATSMsgIDWindow pins what NATS JetStream does with the
// producer's Nats-Msg-Id (the nats-msg-id-window lesson): a retry inside
// the stream's duplicate window is answered with the first publish's
// sequence and Duplicate=true, and stored once; after the window it is a
// new message with a new sequence. And an explicit-ack consumer that does
// not ack gets the message again after AckWait, NumDelivered 2, up to
// MaxDeliver.
func TestIntegrationNATSMsgIDWindow(t *testing.T) {
	srv := needServer(t, NATS)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const window = 500 * time.Millisecond
	j, err := openJetStream(ctx, srv.URL, "once_test_window", window)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close(ctx)
	seq1, dup1, err := j.publish(ctx, 1, "op-1", []byte("1"))
	if err != nil || dup1 {
		t.Fatalf("first publish: seq %d duplicate %v %v", seq1, dup1, err)
	}
	seq2, dup2, err := j.publish(ctx, 1, "op-1", []byte("1"))
	if err != nil || !dup2 || seq2 != seq1 {
		t.Errorf("a retry inside the window: seq %d duplicate %v %v, want seq %d duplicate true", seq2, dup2, err, seq1)
	}
	time.Sleep(window + 300*time.Millisecond)
	seq3, dup3, err := j.publish(ctx, 1, "op-1", []byte("1"))
	if err != nil || dup3 || seq3 == seq1 {
		t.Errorf("a retry after the window: seq %d duplicate %v %v, want a new sequence", seq3, dup3, err)
	}
	info, err := j.stream.Info(ctx)
	if err != nil || info.State.Msgs != 2 {
		t.Errorf("the stream stores %d messages (%v), want 2: the duplicate once, the late retry again", info.State.Msgs, err)
	}

	c, err := j.consumer(ctx, "once_test_consumer", 300*time.Millisecond, 3)
	if err != nil {
		t.Fatal(err)
	}
	var delivered []uint64
	for len(delivered) < 4 {
		batch, err := c.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for m := range batch.Messages() {
			md, err := m.Metadata()
			if err != nil {
				t.Fatal(err)
			}
			got = true
			if md.Sequence.Stream != seq1 { // the first message only; ack the other
				m.Ack()
				continue
			}
			delivered = append(delivered, md.NumDelivered) // never acked
		}
		if !got {
			break // MaxDeliver reached: nothing more comes
		}
	}
	if len(delivered) != 3 || delivered[0] != 1 || delivered[1] != 2 || delivered[2] != 3 {
		t.Errorf("an unacked message's deliveries: NumDelivered %v, want [1 2 3] (MaxDeliver 3)", delivered)
	}
}

// jetStream pins the server's behaviour the nats-msg-id-window driver
// (natsjetstream.go) relies on, with a client of the test's own: a stream
// with a duplicate window, publishes carrying Nats-Msg-Id, and a durable
// pull consumer with explicit acks.
type jetStream struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	name   string
}

// openJetStream connects to url and creates the stream name (subject
// name.>) with the given duplicate window, file storage.
func openJetStream(ctx context.Context, url, name string, window time.Duration) (*jetStream, error) {
	nc, err := nats.Connect(url, nats.Name("once"), nats.MaxReconnects(0))
	if err != nil {
		return nil, fmt.Errorf("brokers: nats: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("brokers: nats: %w", err)
	}
	st, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Duplicates: window, Storage: jetstream.FileStorage})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("brokers: nats: create stream %s: %w", name, err)
	}
	return &jetStream{nc: nc, js: js, stream: st, name: name}, nil
}

// publish sends body on the stream's subject for op with Nats-Msg-Id
// msgID and returns the stream sequence the server answered and whether
// it called the publish a duplicate (inside the window: the first
// publish's sequence, Duplicate=true).
func (j *jetStream) publish(ctx context.Context, op int, msgID string, body []byte) (seq uint64, duplicate bool, err error) {
	ack, err := j.js.Publish(ctx, fmt.Sprintf("%s.op.%d", j.name, op), body, jetstream.WithMsgID(msgID))
	if err != nil {
		return 0, false, fmt.Errorf("brokers: nats: publish %s: %w", msgID, err)
	}
	return ack.Sequence, ack.Duplicate, nil
}

// consumer creates a durable pull consumer with explicit acks, ackWait
// and maxDeliver.
func (j *jetStream) consumer(ctx context.Context, durable string, ackWait time.Duration, maxDeliver int) (jetstream.Consumer, error) {
	c, err := j.stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: durable, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: ackWait, MaxDeliver: maxDeliver})
	if err != nil {
		return nil, fmt.Errorf("brokers: nats: consumer %s: %w", durable, err)
	}
	return c, nil
}

// close deletes the run's stream and closes the connection.
func (j *jetStream) close(ctx context.Context) {
	_ = j.js.DeleteStream(ctx, j.name)
	j.nc.Close()
}
