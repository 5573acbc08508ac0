package sim

import "unsafe"

// The engine's side of a search (package sim/search): what a model
// checker needs of a World beyond running it, and nothing more.
//
//   - snapshot and restore: Clone, CopyFrom (state.go); a World's zero
//     value is an empty buffer for CopyFrom;
//   - one step at a time: Step, with every choice point of the step asked
//     of the Chooser set by SetChooser (the alternatives of a choice are
//     Choice.N; its kind, node and peer say what it hits);
//   - where a step leaves the world: Ended, Pending, JudgeStatus,
//     JudgeReason;
//   - the state: FingerprintWith (Fingerprint, AppendState: state.go,
//     state_hash.go), and StateBytes, its size as a search counts it.
//
// A reduction of the search that needs more of the state (a canonical
// fingerprint under a permutation of interchangeable operations, the
// node of a pending step) asks for it here, as a method of World that
// reads the state and never changes what a run does.

// SetDigest says whether the following steps fold the trace digest
// (Digest). A search turns it off: nothing in a search reads the digest,
// and folding it costs about a fifth of a step. CopyFrom keeps the
// destination's setting, so a buffer set once stays set.
func (w *World) SetDigest(on bool) { w.noDigest = !on }

// Chooser returns the chooser the world asks (SetChooser).
func (w *World) Chooser() Chooser { return w.chooser }

// Pending is the number of events scheduled: 0 once the world has
// nothing left to do (the next Step marks it Quiescent).
func (w *World) Pending() int { return w.q.len() }

// StateBytes is the size a search counts for w: its fixed part and the
// lengths (not the capacities) of its queue, node tables and tallies, so
// the count depends only on the state, never on a buffer's history.
func (w *World) StateBytes() int64 {
	n := int64(unsafe.Sizeof(*w))
	n += int64(len(w.q.items)) * int64(unsafe.Sizeof(item{}))
	n += int64(len(w.nodes)) * int64(unsafe.Sizeof(nodeState{}))
	for i := range w.nodes {
		tables := w.nodes[i].tables
		n += int64(len(tables)) * int64(unsafe.Sizeof(Table{}))
		for t := range tables {
			n += int64(len(tables[t].keys)) * (8 + int64(unsafe.Sizeof(Record{})))
		}
		n += int64(len(w.nodes[i].held)) * int64(unsafe.Sizeof(heldAction{}))
	}
	n += int64(len(w.checker.ops)) * int64(unsafe.Sizeof(OpTally{}))
	n += int64(len(w.invs)) * int64(unsafe.Sizeof(Invariant(nil)))
	return n
}
