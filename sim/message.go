package sim

// Message is one physical message. It is a plain value: the network copies
// it on every send, so a duplicate or a redelivery never shares memory with
// the sender's copy.
//
// The fields are generic slots that each scenario interprets; Op and Attempt
// are ground truth for the checker and the fault plan, carried along even
// where the modelled system would not see them.
type Message struct {
	ID      uint32  // unique per send, assigned by the engine; for traces only — roles must not read it
	From    NodeID  // sender
	To      NodeID  // receiver
	Kind    MsgKind // scenario-defined type
	Op      OpID    // logical operation this message belongs to
	Attempt int32   // 1-based attempt (retry or redelivery count)
	Key     int64   // idempotency key, dedup id or offset; 0 = none
	Payload int64   // request body fingerprint, amount, offset…
	Value   int64   // result: transaction id, offset, record value…
	Status  int32   // result status (HTTP-like codes)
}
