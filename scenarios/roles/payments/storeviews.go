package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Message kinds of the key store (keystore.go): each request is one atomic
// store operation, each has its own reply kind, so a caller's handler for
// the reply is the continuation of the step that issued it.
var (
	MsgDBGet          = roles.Message("db-get")                    // SELECT row WHERE key = K
	MsgDBGot          = roles.Message("db-got")                    // the row, or none
	MsgDBInsert       = roles.Message("db-insert")                 // INSERT without a unique constraint: always succeeds
	MsgDBInsertUnique = roles.Message("db-insert-if-absent")       // INSERT … ON CONFLICT (key) DO NOTHING
	MsgDBInserted     = roles.Message("db-insert-result")          // 201 inserted, 409 a row with that key exists
	MsgDBUpdate       = roles.Message("db-update")                 // UPDATE row SET … WHERE key = K
	MsgDBUpdated      = roles.Message("db-update-result")          // 200, with the row written
	MsgDBCompareSet   = roles.Message("db-compare-and-set")        // UPDATE … WHERE key = K AND state = expected
	MsgDBCompareSetOK = roles.Message("db-compare-and-set-result") // 200 swapped, 409 the state was not the expected one
	MsgDBLock         = roles.Message("db-lock")                   // SET K holder NX PX ttl
	MsgDBLocked       = roles.Message("db-lock-result")            // 201 granted (OK: no token, as Redis answers), 409 held by another
	MsgDBUnavailable  = roles.Message("db-unavailable")            // 503: the store refused the operation (it is down or partitioned)
)

// Message kinds of a monotonic counter kept apart from the lock (a
// ZooKeeper zxid, an etcd revision, a database sequence): the source of
// fencing tokens, which Redis' SET NX PX does not hand out. Registered
// after the names of scenarios/roles/kinds.go, so no digest moves.
var (
	MsgDBNext   = roles.Message("db-next-token")        // INCR the counter: the next fencing token
	MsgDBNextOK = roles.Message("db-next-token-result") // 200, with the token (greater than every token before it)

	// Optimistic concurrency: UPDATE … SET version = v+1 WHERE key = K AND
	// version = v (an absent row is version 0), the commit of a closure
	// that read version v.
	MsgDBVersioned   = roles.Message("db-update-if-version")        // write if the row's version (Value) is the expected one (Status)
	MsgDBVersionedOK = roles.Message("db-update-if-version-result") // 200 written, 409 a newer version is there (serialization failure)
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

// TimerStoreTimeout is a caller's deadline for one store step. Slots: Op,
// Attempt = the request; Key = the row's key; Phase = the step.
var TimerStoreTimeout = roles.Timer("store-timeout")
