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
//   - db-lock is SET key holder NX PX ttl: granted when the key is absent
//     or its lock has expired, with a fencing token that grows with every
//     grant.
//
// The reply is sent before anything else the store does, and carries the
// row as it is after the operation.
type KeyStore struct{}

const (
	storeRows    sim.TableID = iota // key → storeRow
	storeFencing                    // row 0: the last fencing token issued
)

// Start does nothing: the store only answers.
func (s *KeyStore) Start(*sim.Context) {}

// Timer is unused: an expired lock is noticed when the key is next used,
// as Redis does on access.
func (s *KeyStore) Timer(*sim.Context, sim.Timer) {}

// Receive performs one operation and answers it.
func (s *KeyStore) Receive(ctx *sim.Context, m sim.Message) {
	call := decodeStoreCall(m)
	row, found := s.live(ctx, call.Key, m.Op)
	switch m.Kind {
	case MsgDBGet:
		if !found {
			s.reply(ctx, m, MsgDBGot, storeCall{Key: call.Key, Status: dbAbsent})
			return
		}
		s.reply(ctx, m, MsgDBGot, storeCall{Key: call.Key, Status: dbFound, State: row.State, Value: row.Value})
	case MsgDBInsert, MsgDBUpdate:
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		kind, status := MsgDBInserted, dbInserted
		if m.Kind == MsgDBUpdate {
			kind, status = MsgDBUpdated, dbFound
		}
		s.reply(ctx, m, kind, storeCall{Key: call.Key, Status: status, State: call.State, Value: call.Value})
	case MsgDBInsertUnique:
		if found {
			s.reply(ctx, m, MsgDBInserted, storeCall{Key: call.Key, Status: dbConflict, State: row.State, Value: row.Value})
			return
		}
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		s.reply(ctx, m, MsgDBInserted, storeCall{Key: call.Key, Status: dbInserted, State: call.State, Value: call.Value})
	case MsgDBCompareSet:
		if !found || row.State != call.Status {
			s.reply(ctx, m, MsgDBCompareSetOK, storeCall{Key: call.Key, Status: dbConflict, State: row.State, Value: row.Value})
			return
		}
		s.put(ctx, call.Key, m.Op, storeRow{State: call.State, Value: call.Value})
		s.reply(ctx, m, MsgDBCompareSetOK, storeCall{Key: call.Key, Status: dbFound, State: call.State, Value: call.Value})
	case MsgDBLock:
		if found {
			s.reply(ctx, m, MsgDBLocked, storeCall{Key: call.Key, Status: dbConflict, State: row.State, Value: row.Value})
			return
		}
		token := s.nextToken(ctx)
		lock := storeRow{State: keyLocked, Value: token, Holder: call.Status}
		if ttl := sim.Time(call.Payload); ttl > 0 {
			lock.Expires = ctx.Now() + ttl
		}
		s.put(ctx, call.Key, m.Op, lock)
		s.reply(ctx, m, MsgDBLocked, storeCall{Key: call.Key, Status: dbInserted, State: keyLocked, Value: token})
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

// nextToken issues the next fencing token: 1, 2, 3… in grant order.
func (s *KeyStore) nextToken(ctx *sim.Context) int64 {
	r, _ := ctx.Get(storeFencing, 0, 0)
	r.Value++
	ctx.Put(storeFencing, 0, 0, r)
	return r.Value
}

func (s *KeyStore) reply(ctx *sim.Context, m sim.Message, kind sim.MsgKind, answer storeCall) {
	ctx.Send(m.From, answer.encode(envelope{Kind: kind, Op: m.Op, Attempt: m.Attempt}))
}

func init() {
	roles.Register(&roles.Role{
		Name:  "key-store",
		Doc:   "a database or key store reached over the network: get, insert (with or without a unique constraint), update, compare-and-set, SET NX PX with fencing tokens; one atomic operation per message",
		Store: true,
		New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
			return &KeyStore{}, []sim.TableSpec{
				{Name: "rows", Durable: true, Traced: true, States: storeStates},
				{Name: "fencing", Durable: true},
			}
		},
	})
}
