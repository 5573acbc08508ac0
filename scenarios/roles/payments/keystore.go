package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// KeyStore is a database or key store reached over the network: a node of
// its own, so each operation is a step of its own and other handlers run
// between a caller's read and its write (docs/concurrency.md). Each
// delivery is one atomic operation, as a single statement is in a real
// store:
//
//   - db-get reads a row;
//   - db-insert writes a row with no unique constraint: it never fails, a
//     second insert of the key simply succeeds too;
//   - db-insert-if-absent is INSERT … ON CONFLICT DO NOTHING under a
//     unique constraint: 201, or 409 and the row that is there;
//   - db-update overwrites a row;
//   - db-compare-and-set writes only if the row's state is the expected
//     one (SELECT … FOR UPDATE then UPDATE, in one step);
//   - db-lock is SET key holder NX PX ttl: granted (OK) when the key is
//     absent or its lock has expired, held (nil) otherwise — nothing more,
//     as Redis answers (redis.io/commands/set): no fencing token;
//   - db-update-if-version writes the row's next version only if its
//     version is the expected one (optimistic concurrency; absent is 0);
//   - db-next-token increments the store's counter and answers its new
//     value: a store used as a fencing-token counter (a ZooKeeper zxid, an
//     etcd revision, a database sequence), a node of its own.
//
// The reply is sent before anything else the store does, and carries the
// row as it is after the operation.
//
// A key store marked crashable offers a crash at PointStoreDown on every
// operation, before applying it: the store goes down — its rows are
// durable and survive — and is unreachable until its restart, so the
// outage is a fault the Chooser decides (drawn by random runs, branched on
// by explore), lasting the node's restart time.
type KeyStore struct {
	answerer // no timers: an expired lock is noticed when the key is next used, as Redis does on access
	// CountInserts makes every row an insert creates an effect on
	// InsertSink, valued with the row's sequence number (its surrogate
	// id): a table whose rows are what the lesson counts (order lines).
	// A plain insert of a key already there still creates a row — the
	// table has no unique constraint — though the store keeps only the
	// latest row per key.
	CountInserts bool
	InsertSink   sim.SinkID
}

// KeyStoreTables declares the tables of a KeyStore: its rows, and the
// sequence that numbers fencing tokens (db-next-token) and inserted rows.
func KeyStoreTables() []sim.TableSpec {
	return []sim.TableSpec{
		{Name: "rows", Durable: true, Traced: true, States: storeStates},
		{Name: "sequence", Durable: true},
	}
}

const (
	storeRows     sim.TableID = iota // key → storeRow
	storeSequence                    // row 0: the last fencing token or row number issued
)

// Receive performs one operation and answers it.
func (s *KeyStore) Receive(ctx *sim.Context, m sim.Message) {
	if ctx.CrashPoint(PointStoreDown, &m) {
		return // down: the operation is lost, nothing is answered
	}
	call := DecodeStoreCall(m)
	row, found := s.live(ctx, call.Key, m.Op)
	switch m.Kind {
	case MsgDBGet:
		if !found {
			s.reply(ctx, m, MsgDBGot, StoreCall{Key: call.Key, Status: StoreAbsent})
			return
		}
		s.reply(ctx, m, MsgDBGot, StoreCall{Key: call.Key, Status: StoreFound, State: row.State, Value: row.Value})
	case MsgDBInsert, MsgDBUpdate:
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		if m.Kind == MsgDBInsert {
			s.inserted(ctx, m.Op)
		}
		kind, status := MsgDBInserted, StoreInserted
		if m.Kind == MsgDBUpdate {
			kind, status = MsgDBUpdated, StoreFound
		}
		s.reply(ctx, m, kind, StoreCall{Key: call.Key, Status: status, State: call.State, Value: call.Value})
	case MsgDBInsertUnique:
		if found {
			s.reply(ctx, m, MsgDBInserted, StoreCall{Key: call.Key, Status: StoreConflict, State: row.State, Value: row.Value})
			return
		}
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		s.inserted(ctx, m.Op)
		s.reply(ctx, m, MsgDBInserted, StoreCall{Key: call.Key, Status: StoreInserted, State: call.State, Value: call.Value})
	case MsgDBCompareSet:
		if !found || row.State != call.Status {
			s.reply(ctx, m, MsgDBCompareSetOK, StoreCall{Key: call.Key, Status: StoreConflict, State: row.State, Value: row.Value})
			return
		}
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		s.reply(ctx, m, MsgDBCompareSetOK, StoreCall{Key: call.Key, Status: StoreFound, State: call.State, Value: call.Value})
	case MsgDBLock:
		if found {
			s.reply(ctx, m, MsgDBLocked, StoreCall{Key: call.Key, Status: StoreConflict, State: row.State, Value: row.Value})
			return
		}
		lock := storeRow{State: keyLocked, Holder: call.Status}
		if ttl := sim.Time(call.Payload); ttl > 0 {
			lock.Expires = ctx.Now() + ttl
		}
		s.put(ctx, call.Key, m.Op, lock)
		s.reply(ctx, m, MsgDBLocked, StoreCall{Key: call.Key, Status: StoreInserted, State: keyLocked})
	case MsgDBVersioned:
		if int64(call.Status) != row.Value { // absent: version 0
			s.reply(ctx, m, MsgDBVersionedOK, StoreCall{Key: call.Key, Status: StoreConflict, State: row.State, Value: row.Value})
			return
		}
		s.put(ctx, call.Key, m.Op, storeRow{State: roles.KeyCompleted, Value: row.Value + 1})
		s.reply(ctx, m, MsgDBVersionedOK, StoreCall{Key: call.Key, Status: StoreFound, State: roles.KeyCompleted, Value: row.Value + 1})
	case MsgDBNext:
		s.reply(ctx, m, MsgDBNextOK, StoreCall{Key: call.Key, Status: StoreFound, Value: s.next(ctx)})
	}
}

// live reads key, expiring it first if it is a lock whose TTL is over.
func (s *KeyStore) live(ctx *sim.Context, key int64, op sim.OpID) (storeRow, bool) {
	r, ok := ctx.Get(storeRows, key, op)
	if !ok {
		return storeRow{}, false
	}
	row := decodeStoreRow(r)
	if row.Expires != 0 && ctx.Now() >= row.Expires {
		ctx.Expire(storeRows, key, op)
		return storeRow{}, false
	}
	return row, true
}

func (s *KeyStore) put(ctx *sim.Context, key int64, op sim.OpID, row storeRow) {
	ctx.Put(storeRows, key, op, row.encode())
}

// next issues the next number of the store's sequence: fencing tokens
// 1, 2, 3… in request order, and row numbers.
func (s *KeyStore) next(ctx *sim.Context) int64 {
	r, _ := ctx.Get(storeSequence, 0, 0)
	r.Value++
	ctx.Put(storeSequence, 0, 0, r)
	return r.Value
}

// inserted counts a row an insert created, when the store's rows are
// effects.
func (s *KeyStore) inserted(ctx *sim.Context, op sim.OpID) {
	if s.CountInserts {
		ctx.Effect(s.InsertSink, op, s.next(ctx))
	}
}

func (s *KeyStore) reply(ctx *sim.Context, m sim.Message, kind sim.MsgKind, answer StoreCall) {
	ctx.Send(m.From, answer.Encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

func registerKeystore(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name:  "key-store",
		Doc:   "a database or key store reached over the network: get, insert (with or without a unique constraint), update, compare-and-set, SET NX PX (no token), a fencing-token counter; one atomic operation per message",
		Store: true,
		New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
			return &KeyStore{}, KeyStoreTables()
		},
	})
}
