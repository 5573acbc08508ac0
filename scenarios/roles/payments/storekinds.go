package payments

import "github.com/oncesim/once/sim"

// Message kinds of the key store (keystore.go): each request is one atomic
// store operation, each has its own reply kind, so a caller's handler for
// the reply is the continuation of the step that issued it.
var (
	MsgDBGet          sim.MsgKind // SELECT row WHERE key = K
	MsgDBGot          sim.MsgKind // the row, or none
	MsgDBInsert       sim.MsgKind // INSERT without a unique constraint: always succeeds
	MsgDBInsertUnique sim.MsgKind // INSERT … ON CONFLICT (key) DO NOTHING
	MsgDBInserted     sim.MsgKind // 201 inserted, 409 a row with that key exists
	MsgDBUpdate       sim.MsgKind // UPDATE row SET … WHERE key = K
	MsgDBUpdated      sim.MsgKind // 200, with the row written
	MsgDBCompareSet   sim.MsgKind // UPDATE … WHERE key = K AND state = expected
	MsgDBCompareSetOK sim.MsgKind // 200 swapped, 409 the state was not the expected one
	MsgDBLock         sim.MsgKind // SET K holder NX PX ttl
	MsgDBLocked       sim.MsgKind // 201 granted (OK: no token, as Redis answers), 409 held by another
	MsgDBUnavailable  sim.MsgKind // 503: the store refused the operation (it is down or partitioned)
)

// Message kinds of a monotonic counter kept apart from the lock (a
// ZooKeeper zxid, an etcd revision, a database sequence): the source of
// fencing tokens, which Redis' SET NX PX does not hand out.
var (
	MsgDBNext   sim.MsgKind // INCR the counter: the next fencing token
	MsgDBNextOK sim.MsgKind // 200, with the token (greater than every token before it)

	// Optimistic concurrency: UPDATE … SET version = v+1 WHERE key = K AND
	// version = v (an absent row is version 0), the commit of a closure
	// that read version v.
	MsgDBVersioned   sim.MsgKind // write if the row's version (Value) is the expected one (Status)
	MsgDBVersionedOK sim.MsgKind // 200 written, 409 a newer version is there (serialization failure)
)

// TimerStoreTimeout is a caller's deadline for one store step. Slots: Op,
// Attempt = the request; Key = the row's key; Phase = the step.
var TimerStoreTimeout sim.TimerKind
