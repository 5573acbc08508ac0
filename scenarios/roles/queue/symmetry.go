package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Operation symmetry (sim.OpRenamer) of the queue's plain roles: the
// producer, the broker and the consumer. Their records are
// interchangeable — an operation's id reaches their state only as the id
// itself (the producer's ops row, a log row's operation, a seen
// (op, attempt) pair, a consumer's dedup key) and as the record the
// producer derives from it (roles.Payload), carried by a publish and by
// every delivery. Offsets come from the log's length, in the order the
// publishes arrive, and are not renamed. The explorer stores one state per
// renaming of the records (sim.Symmetry); TestRolesAreEquivariant
// (package scenarios) checks, step by step on random schedules, that
// these roles do to a renamed state what they did to the original,
// renamed.

// renameRecord renames a record made from an operation id,
// roles.Payload(op); any other value is left as it is.
func renameRecord(v int64, to func(sim.OpID) sim.OpID) int64 {
	if op := v - roles.Payload(0); op >= 1 && op < offsetKeyBase {
		return roles.Payload(to(sim.OpID(op)))
	}
	return v
}

// OpSymmetric implements sim.OpRenamer: the producer publishes every
// operation alike, unless it restarts — its Start schedules the
// operations by their numbers again.
func (p *Producer) OpSymmetric(_ sim.Semantics, crashes bool) (bool, string) {
	if crashes {
		return false, sim.SymmetryRestart
	}
	return true, ""
}

// RenameRow implements sim.OpRenamer: the ops table is keyed by the
// operation; its rows hold a state, an attempt and a sequence number.
func (p *Producer) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	return roles.RenameOpsRow(t, producerOps, key, r, to)
}

// RenameMessage implements sim.OpRenamer: an ack carries an offset, a
// timer its operation and attempt; nothing derived from an operation id.
func (p *Producer) RenameMessage(*sim.Message, bool, func(sim.OpID) sim.OpID) {}

// OpSymmetric implements sim.OpRenamer: the broker treats every record
// alike (it assigns offsets in arrival order and redelivers by offset),
// and its Start does nothing.
func (b *Broker) OpSymmetric(sim.Semantics, bool) (bool, string) { return true, "" }

// RenameRow implements sim.OpRenamer: a log row keeps its record's
// operation; the seen table is keyed by (operation, attempt).
func (b *Broker) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	switch t {
	case brokerLog:
		v := decodeLogRow(r)
		v.Op = to(v.Op)
		return key, v.encode()
	case brokerSeen:
		p := roles.TupleLoMax(roles.AttemptDigits) + 1
		return opAttemptKey(to(sim.OpID(key/p)), int32(key%p)), r
	}
	return key, r
}

// RenameMessage implements sim.OpRenamer: a publish carries its record; a
// commit and a redelivery timer carry an offset.
func (b *Broker) RenameMessage(m *sim.Message, timer bool, to func(sim.OpID) sim.OpID) {
	if !timer && m.Kind == MsgPublish {
		m.Payload = renameRecord(m.Payload, to)
	}
}

// OpSymmetric overrides the embedded Broker's: the group broker's
// routing and consumers are not declared symmetric.
func (b *GroupBroker) OpSymmetric(sim.Semantics, bool) (bool, string) {
	return false, sim.SymmetryUndeclared
}

// OpSymmetric overrides the embedded Broker's: a FIFO queue's message
// groups and deduplication ids are not declared symmetric.
func (q *SQSFifo) OpSymmetric(sim.Semantics, bool) (bool, string) {
	return false, sim.SymmetryUndeclared
}

// OpSymmetric implements sim.OpRenamer: a consumer that keys its dedup
// rows by operation, or every one by offset, treats every record alike;
// one that keys the first operations by id and the rest by offset
// (key-from) does something for op-1 that it does not do for op-9. Its
// Start does nothing, so a restart is symmetric.
func (c *Consumer) OpSymmetric(sim.Semantics, bool) (bool, string) {
	if c.KeyByOffset && c.KeyFromPct > 0 {
		return false, sim.SymmetryKeys
	}
	return true, ""
}

// RenameRow implements sim.OpRenamer: a dedup row keyed by operation is
// renamed (one keyed by offset is not); the seen table is keyed by
// offset.
func (c *Consumer) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	if t == consumerDedup && key >= 1 && key < offsetKeyBase {
		key = int64(to(sim.OpID(key)))
	}
	return key, r
}

// RenameMessage implements sim.OpRenamer: a delivery carries its
// record.
func (c *Consumer) RenameMessage(m *sim.Message, timer bool, to func(sim.OpID) sim.OpID) {
	if !timer && m.Kind == MsgDeliver {
		m.Payload = renameRecord(m.Payload, to)
	}
}
