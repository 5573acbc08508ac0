package queue

// sendMessage is an SQS SendMessage to a FIFO queue (MsgPublish). Slots:
// Payload = the message body (what content-based deduplication hashes);
// Key = the MessageDeduplicationId (0: none given, the queue's
// content-based deduplication applies).
//
//viewgen:message envelope
type sendMessage struct {
	Body    int64 `slot:"Payload"`
	DedupID int64 `slot:"Key"`
}

// fifoOutboxRow is a relay's outbox row for one order (keyed by op).
// Slots: State = roles.OpPending (not yet confirmed by the queue) or
// roles.OpDone; Value = the latest attempt sent.
//
//viewgen:record
type fifoOutboxRow struct {
	State   int32 `slot:"State"`
	Attempt int32 `slot:"Value"`
}
