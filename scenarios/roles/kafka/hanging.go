package kafka

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func registerHanging(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "no-hanging-txn",
		Doc:  "when nothing is left to happen, no record of the output log is still OPEN: every transaction on the partition ended, so the last stable offset reached the log end and read_committed readers read everything committed (a liveness property: a finished run that breaks it never settles)",
		New:  func(topo *sim.Topology) sim.Invariant { return &noHangingTxn{logs: logTables(topo)} },
	})
}

// noHangingTxn folds the output log's records (offset, state, operation,
// producer id) from the broker's traced puts. At the end of a finished
// run — nothing left to happen, so no marker will ever come — an OPEN
// record is a hanging transaction: the last stable offset stays at the
// first one, and every record committed after it is out of every
// read_committed reader's reach for good.
type noHangingTxn struct {
	logs    []uint64
	offsets []int64 // sorted
	states  []int32 // parallel to offsets
	ops     []int64
	pids    []int64
}

func (v *noHangingTxn) Name() string { return "no-hanging-txn" }

// Eventually marks it a liveness property (sim.LivenessInvariant).
func (v *noHangingTxn) Eventually() {}

func (v *noHangingTxn) Record(e *sim.Event) {
	if !isLogPut(v.logs, e) {
		return
	}
	r := decodeLogRow(e.Rec)
	i, found := slices.BinarySearch(v.offsets, e.Msg.Key)
	if !found {
		v.offsets = slices.Insert(v.offsets, i, e.Msg.Key)
		v.states = slices.Insert(v.states, i, r.State)
		v.ops = slices.Insert(v.ops, i, int64(r.Op))
		v.pids = slices.Insert(v.pids, i, r.PID)
		return
	}
	v.states[i], v.ops[i], v.pids[i] = r.State, int64(r.Op), r.PID
}

func (v *noHangingTxn) Violation(finished bool) string { return v.ViolationDetail(finished).English }

// ViolationDetail implements sim.ViolationDetailer: judged on a finished
// run only (until then a marker may still come).
func (v *noHangingTxn) ViolationDetail(finished bool) sim.Violation {
	if !finished {
		return sim.Violation{}
	}
	first := slices.Index(v.states, logOpen)
	if first < 0 {
		return sim.Violation{}
	}
	var behind []string
	for i := first + 1; i < len(v.offsets); i++ {
		if (v.states[i] == logCommitted || v.states[i] == logPlain) && v.ops[i] > 0 {
			behind = append(behind, sim.OpID(v.ops[i]).String())
		}
	}
	op, offset, pid := sim.OpID(v.ops[first]).String(), sim.Itoa(v.offsets[first]), sim.Itoa(v.pids[first])
	if len(behind) == 0 {
		return sim.NewViolation("violation.no-hanging-txn-idle", 0,
			fmt.Sprintf("a hanging transaction: the record of %s at offset %d (producer %s) is still OPEN and no marker will end it; the last stable offset stays there", op, v.offsets[first], pid),
			"Op", op, "Offset", offset, "Producer", pid)
	}
	list := strings.Join(behind, ", ")
	return sim.NewViolation("violation.no-hanging-txn", 0,
		fmt.Sprintf("a hanging transaction: the record of %s at offset %d (producer %s) is still OPEN and no marker will end it; the last stable offset stays there, and no read_committed reader ever reads %s, committed after it", op, v.offsets[first], pid, list),
		"Op", op, "Offset", offset, "Producer", pid, "Behind", list)
}

func (v *noHangingTxn) Clone() sim.Invariant {
	c := *v
	c.offsets = slices.Clone(v.offsets)
	c.states = slices.Clone(v.states)
	c.ops = slices.Clone(v.ops)
	c.pids = slices.Clone(v.pids)
	return &c
}

func (v *noHangingTxn) AppendState(b []byte) []byte {
	b = appendInts(b, int64(len(v.offsets)))
	for i := range v.offsets {
		b = appendInts(b, v.offsets[i], int64(v.states[i]), v.ops[i], v.pids[i])
	}
	return b
}
