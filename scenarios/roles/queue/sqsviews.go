package queue

import "github.com/oncesim/once/sim"

// sendMessage is an SQS SendMessage to a FIFO queue (MsgPublish). Slots:
// Payload = the message body (what content-based deduplication hashes);
// Key = the MessageDeduplicationId (0: none given, the queue's
// content-based deduplication applies).
type sendMessage struct {
	Body    int64
	DedupID int64
}

func (v sendMessage) encode(e envelope) sim.Message {
	m := e.Message()
	m.Payload, m.Key = v.Body, v.DedupID
	return m
}

func decodeSendMessage(m sim.Message) sendMessage {
	return sendMessage{Body: m.Payload, DedupID: m.Key}
}

// fifoOutboxRow is a relay's outbox row for one order (keyed by op).
// Slots: State = roles.OpPending (not yet confirmed by the queue) or
// roles.OpDone; Value = the latest attempt sent.
type fifoOutboxRow struct {
	State   int32
	Attempt int32
}

func (v fifoOutboxRow) encode() sim.Record {
	return sim.Record{State: v.State, Value: int64(v.Attempt)}
}

func decodeFifoOutboxRow(r sim.Record) fifoOutboxRow {
	return fifoOutboxRow{State: r.State, Attempt: int32(r.Value)}
}
