package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Reply statuses of the key store.
const (
	StoreFound    int32 = roles.StatusOK       // db-got: the row is there; db-update, db-compare-and-set: written
	StoreAbsent   int32 = roles.StatusNotFound // db-got: no row
	StoreInserted int32 = roles.StatusCreated  // an insert created the row; a lock was granted
	StoreConflict int32 = roles.StatusConflict // a unique insert found the row; a compare-and-set or lock lost
)

// storeRow is a row of the key store: a state (PROCESSING, COMPLETED,
// LOCKED), a value (a response, a transaction id, a fencing token) and,
// for a lock, its holder and when it expires. Slots: State = the state;
// Value = the value; Status = the holder (locks; 0 otherwise); Aux = the
// absolute expiry time in ticks (locks with a TTL; 0: never); At = when it
// was written.
//
//viewgen:record
type storeRow struct {
	State   int32    `slot:"State"`
	Value   int64    `slot:"Value"`
	Holder  int32    `slot:"Status"`
	Expires sim.Time `slot:"Aux"`
	At      sim.Time `slot:"At"`
}

// StoreCall is one store operation and its reply. Slots: Key = the row's
// key; Payload = the row state to write (insert, update, compare-and-set:
// the new state), or the lock's TTL in ticks (db-lock); Value = the value
// to write, or in a reply the row's value (the fencing token of a granted
// lock); Status = in a reply the result (200, 201, 404, 409, 503), in a
// compare-and-set the expected state, in a db-lock the holder; in a
// db-got and a 409 reply, Payload is the row's state. Its codec is
// hand-written: State and Payload share the Payload slot.
type StoreCall struct {
	Key     int64
	State   int32
	Value   int64
	Status  int32
	Payload int64 // TTL of a lock in ticks
}

// Encode returns the message of kind, op and attempt e carrying v.
func (v StoreCall) Encode(e roles.Envelope) sim.Message {
	m := e.Message()
	m.Key, m.Value, m.Status = v.Key, v.Value, v.Status
	m.Payload = int64(v.State)
	if v.Payload != 0 {
		m.Payload = v.Payload
	}
	return m
}

// DecodeStoreCall reads a store operation or reply from m.
func DecodeStoreCall(m sim.Message) StoreCall {
	return StoreCall{Key: m.Key, State: int32(m.Payload), Value: m.Value, Status: m.Status, Payload: m.Payload}
}

// storeStates names the key store's row states in a trace.
var storeStates = []string{"", "PROCESSING", "COMPLETED", "LOCKED"}

// keyLocked is the state of a row that is a lock (SET NX PX).
const keyLocked int32 = 3
