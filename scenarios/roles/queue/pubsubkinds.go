package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Messages, timers and views of the Pub/Sub lesson (pubsub-server and
// pubsub-subscriber), in a file of their own so that lesson does not touch
// the family's shared kinds.
var (
	MsgPubSubAck    sim.MsgKind   // subscriber → server: acknowledge the delivery with this ack id
	MsgAckResponse  sim.MsgKind   // server → subscriber: the ack's result (exactly-once delivery: ack-with-response)
	TimerAckExpiry  sim.TimerKind // the server's ack deadline of one delivery
	TimerAckRetry   sim.TimerKind // the subscriber's wait for an ack response
	statusAckIDGone = int32(410)  // the ack id is no longer valid: the message was redelivered (PERMANENT_FAILURE_INVALID_ACK_ID)
)

// pubsubAck is a subscriber's ack (MsgPubSubAck) and the server's answer
// to it (MsgAckResponse). The envelope's Attempt is the ack id: the
// delivery count of the message when it was delivered. Slots: Key = the
// message id (the log offset); Status = the answer (200 acked, 410 the ack
// id is gone; 0 in an ack).
//
//viewgen:message envelope decode=decodePubSubAck
type pubsubAck struct {
	MessageID int64 `slot:"Key"`
	Status    int32 `slot:"Status"`
}

// The states of a subscriber's ack rows (keyed by ackKey; Value = the
// message id): where the ack of one delivery stands.
const (
	ackNone int32 = iota
	ackSent
	ackDone
	ackFailed
)

// ackStates names the states of a subscriber's pending-ack rows for the
// trace.
var ackStates = []string{"", "SENT", "ACKED", "ACK-FAILED"}

// ackKey names one delivery's ack in a subscriber's acks table: the
// message id and the ack id. Ranges: roles.TupleKey's, with
// roles.AttemptDigits for the ack id.
func ackKey(id int64, ackID int32) int64 {
	return roles.TupleKey(id, int64(ackID), roles.AttemptDigits)
}
