package roles

import "github.com/oncesim/once/sim"

// Envelope is what every message carries besides its protocol view: its
// kind and the ground-truth operation and attempt (for a broker's
// delivery, the delivery count). A family's views fill the other slots.
type Envelope struct {
	Kind    sim.MsgKind
	Op      sim.OpID
	Attempt int32
}

// Message returns a message with only the envelope set; a view's encode
// fills its slots.
func (e Envelope) Message() sim.Message {
	return sim.Message{Kind: e.Kind, Op: e.Op, Attempt: e.Attempt}
}

// Flag is 1 for true and 0 for false: a view's bool in a slot (read back
// as non-zero).
func Flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
