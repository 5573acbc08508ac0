package brokers

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// jetStream is the NATS JetStream side of a broker run: a stream of the
// run's own with a duplicate window, publishes carrying Nats-Msg-Id, and
// a durable pull consumer with explicit acks. It is what the
// nats-msg-id-window scenario's driver will use; its integration test
// pins what nats-server 2.9 does with it.
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
