package sim

import (
	"encoding/binary"
)

// Clone returns an independent copy of w: node tables, scheduled events,
// checker tallies, invariants, clock. The copy shares the read-only Config,
// the chooser and the recorder; set them anew with SetChooser and
// SetRecorder where that matters.
func (w *World) Clone() *World {
	c := &World{}
	c.CopyFrom(w)
	return c
}

// CopyFrom makes w an independent copy of src, reusing w's memory. Explorers
// use it to restore a snapshot without allocating.
func (w *World) CopyFrom(src *World) {
	w.cfg, w.chooser, w.rec, w.names, w.kinds = src.cfg, src.chooser, src.rec, src.names, src.kinds
	w.now, w.seq, w.msgID, w.events = src.now, src.seq, src.msgID, src.events
	w.digest, w.end = src.digest, src.end
	w.q.copyFrom(&src.q)
	if len(w.nodes) != len(src.nodes) {
		w.nodes = make([]nodeState, len(src.nodes))
	}
	for i := range src.nodes {
		s, d := &src.nodes[i], &w.nodes[i]
		d.down, d.incarnation, d.handled = s.down, s.incarnation, s.handled
		d.paused, d.resumeAt, d.held = s.paused, s.resumeAt, append(d.held[:0], s.held...)
		if len(d.tables) != len(s.tables) {
			d.tables = make([]Table, len(s.tables))
		}
		for t := range s.tables {
			d.tables[t].copyFrom(&s.tables[t])
		}
	}
	w.checker.copyFrom(&src.checker)
	w.invs = w.invs[:0]
	for _, inv := range src.invs {
		w.invs = append(w.invs, inv.Clone())
	}
	w.ctx.w = w
	w.stamp.w = w
}

// FingerprintWith is Fingerprint with the scratch (for invariants' and
// paused nodes' encodings) in *buf, a buffer the caller keeps, so a world
// copied many times (a search's snapshots) carries no encoding scratch of
// its own. It returns the same fingerprint as Fingerprint.
func (w *World) FingerprintWith(buf *[]byte) Fingerprint {
	return w.hashState(buf)
}

// Fingerprint is a 64-bit hash of a world's canonical state.
type Fingerprint uint64

// AppendState appends the canonical encoding of the world's state to b.
//
// Two worlds that will behave alike get the same encoding:
//   - times are relative to now (timers as time remaining, table rows as
//     age), so a world shifted in time is the same state;
//   - rows of an age-free table (TableSpec.AgeFree) carry no time at all,
//     and their At (0) is encoded as it is, not as an age. This drops
//     nothing: Context.Put stores such a row with At = 0 whatever the role
//     passes, so the row a role reads back (Context.Get, Rows) and the row
//     the trace's put and get events carry — what the checker, invariants
//     and metrics read — are the stored row, time included. The verdict
//     of a state's future is the checker's (from the per-op effect counts
//     and distinct outcomes, encoded below) and the invariants' (from
//     their encoded state and the events to come), so two states this
//     merges have the same verdicts. Held events of a paused node follow
//     the same rule (rowAge): a row of a table that keeps times by its
//     age, anything else by its At, which is 0;
//   - message ids, the event counter and per-op attempt and delivery counts
//     are left out: no role reads them and no verdict depends on them;
//   - timers of a dead incarnation are left out: they can never fire;
//   - scheduled events keep their (time, sequence) order but not the
//     sequence numbers themselves.
//
// Everything else — node tables, up/down, paused and what a paused node
// holds, in-flight messages (queued ones included), live timers,
// effects and distinct outcomes so far, invariant state — is encoded.
func (w *World) AppendState(b []byte) []byte {
	for i := range w.nodes {
		ns := &w.nodes[i]
		b = append(b, 0xf0, boolByte(ns.down))
		specs := w.cfg.Topology.Nodes[i].Tables
		b = ns.appendPause(b, w.now, specs, w.names)
		for t := range ns.tables {
			tb := &ns.tables[t]
			now := w.now // rows' ages are now − At; an age-free table's At are all 0 and encoded as such
			if specs[t].AgeFree {
				now = 0
			}
			b = binary.AppendUvarint(b, uint64(len(tb.keys)))
			for r := range tb.keys {
				row := &tb.rows[r]
				b = binary.AppendVarint(b, tb.keys[r])
				b = binary.AppendVarint(b, int64(row.State))
				b = binary.AppendVarint(b, int64(row.Status))
				b = binary.AppendVarint(b, row.Value)
				b = binary.AppendVarint(b, row.Aux)
				b = binary.AppendVarint(b, int64(now-row.At))
			}
		}
	}
	b = append(b, 0xf1)
	order := w.liveQueueOrder()
	for _, i := range order {
		it := &w.q.items[i]
		m := &it.msg
		b = append(b, byte(it.kind)|boolByte(it.urgent())<<7, byte(it.node), byte(m.From), byte(m.To))
		b = binary.LittleEndian.AppendUint64(b, w.queuedKindKey(it))
		b = binary.AppendVarint(b, int64(it.at-w.now))
		b = appendMessageFields(b, m)
	}
	b = append(b, 0xf2)
	for i := 1; i < len(w.checker.ops); i++ {
		t := &w.checker.ops[i]
		for k := 0; k < w.checker.nsinks; k++ {
			b = binary.AppendUvarint(b, uint64(t.Sinks[k]))
		}
		b = binary.AppendUvarint(b, uint64(t.nDistinct))
		for d := int32(0); d < t.nDistinct; d++ {
			b = binary.AppendVarint(b, t.distinct[d].value)
			b = binary.AppendVarint(b, int64(t.distinct[d].status))
		}
	}
	b = append(b, 0xf3)
	for _, inv := range w.invs {
		b = inv.AppendState(b)
	}
	return b
}

// queuedKindKey returns the key of the name of a scheduled item's kind: a
// timer kind for a timer, a message kind for a delivery, 0 otherwise. The
// fingerprint, like the digest, never sees a kind's number.
func (w *World) queuedKindKey(it *item) uint64 {
	switch it.kind {
	case itemTimer:
		return keyAt(w.names.timers, int(it.msg.Kind))
	case itemDeliver:
		return keyAt(w.names.messages, int(it.msg.Kind))
	}
	return 0
}

// Fingerprint hashes the fields AppendState encodes, word by word (see
// hashState), without building the encoding. The hash is fixed (not
// seeded per process), so exploration visits states in the same order and
// reports the same numbers on every machine.
func (w *World) Fingerprint() Fingerprint {
	return w.hashState(&w.fpBuf)
}

// HashBytes is a fast, fixed 64-bit hash of b (word-at-a-time multiply and
// xor-shift, finished with splitmix).
func HashBytes(b []byte) Fingerprint {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		h ^= h >> 29
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	h = (h ^ tail) * 0xc4ceb9fe1a85ec53
	return Fingerprint(splitmix(h))
}

// appendMessageFields appends a message's operation, attempt, key,
// payload, value and status, as varints.
func appendMessageFields(b []byte, m *Message) []byte {
	b = binary.AppendVarint(b, int64(m.Op))
	b = binary.AppendVarint(b, int64(m.Attempt))
	b = binary.AppendVarint(b, m.Key)
	b = binary.AppendVarint(b, m.Payload)
	b = binary.AppendVarint(b, m.Value)
	return binary.AppendVarint(b, int64(m.Status))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
