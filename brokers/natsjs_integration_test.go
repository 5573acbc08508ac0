//go:build integration

package brokers

import (
	"context"
	"testing"
	"time"

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
