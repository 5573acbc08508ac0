package kafka

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func registerInvariants(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "isolation",
		Doc:  "a downstream reader never sees a record whose transaction was aborted (what read_committed promises)",
		New:  func(topo *sim.Topology) sim.Invariant { return &isolationInvariant{logs: logTables(topo)} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "fencing",
		Doc:  "once a partition has seen a producer's newer epoch, no write of an older epoch of that producer is appended (zombies are fenced)",
		New:  func(topo *sim.Topology) sim.Invariant { return &fencingInvariant{logs: logTables(topo)} },
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "kafka-duplicates",
		Unit: "operations",
		Doc:  "operations whose output record a downstream reader saw more than once (duplicates inside the Kafka boundary)",
		New:  func(*sim.Topology) sim.Metric { return &readCounts{sink: SinkOutput, name: "kafka-duplicates"} },
	})
}

// logTables finds every broker log of a topology by table name: bit t of
// entry n is set when table t of node n is a Kafka log.
func logTables(topo *sim.Topology) []uint64 {
	out := make([]uint64, len(topo.Nodes))
	for n := range topo.Nodes {
		for t, spec := range topo.Nodes[n].Tables {
			if spec.Name == logTableName && t < 64 {
				out[n] |= 1 << t
			}
		}
	}
	return out
}

func isLogPut(logs []uint64, e *sim.Event) bool {
	return e.Kind == sim.EvStorePut && int(e.Node) < len(logs) && e.Label < 64 && logs[e.Node]&(1<<e.Label) != 0
}

// insertSorted adds v to a sorted set.
func insertSorted(s []int64, v int64) []int64 {
	i, found := slices.BinarySearch(s, v)
	if found {
		return s
	}
	return slices.Insert(s, i, v)
}

func containsSorted(s []int64, v int64) bool {
	_, found := slices.BinarySearch(s, v)
	return found
}

func appendInts(b []byte, vs ...int64) []byte {
	for _, v := range vs {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// appendList appends a list of varints that says its length first, so
// that two lists in a row cannot run into each other.
func appendList(b []byte, vs []int64) []byte {
	b = appendInts(b, int64(len(vs)))
	return appendInts(b, vs...)
}

// isolationInvariant folds the output offsets readers saw (kafka-output
// effects carry the offset) and the offsets the broker marked ABORTED in
// its output log; an offset in both is a reader that saw an aborted
// record, whichever came first.
type isolationInvariant struct {
	logs    []uint64
	seen    []int64
	aborted []int64
	badKey  int64
	badOp   sim.OpID
}

func (v *isolationInvariant) Name() string { return "isolation" }

func (v *isolationInvariant) Record(e *sim.Event) {
	switch {
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == SinkOutput:
		v.seen = insertSorted(v.seen, e.Msg.Value)
		if v.badKey == 0 && containsSorted(v.aborted, e.Msg.Value) {
			v.badKey, v.badOp = e.Msg.Value, e.Msg.Op
		}
	case isLogPut(v.logs, e) && e.Rec.State == logAborted:
		v.aborted = insertSorted(v.aborted, e.Msg.Key)
		if v.badKey == 0 && containsSorted(v.seen, e.Msg.Key) {
			v.badKey, v.badOp = e.Msg.Key, e.Msg.Op
		}
	}
}

func (v *isolationInvariant) Violation(f bool) string { return v.ViolationDetail(f).English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *isolationInvariant) ViolationDetail(bool) sim.Violation {
	if v.badKey == 0 {
		return sim.Violation{}
	}
	return sim.NewViolation("violation.isolation", 0,
		fmt.Sprintf("a reader saw the record of %s at offset %d, whose transaction was aborted", v.badOp, v.badKey),
		"Op", v.badOp.String(), "Offset", sim.Itoa(v.badKey))
}

func (v *isolationInvariant) Clone() sim.Invariant {
	c := *v
	c.seen = slices.Clone(v.seen)
	c.aborted = slices.Clone(v.aborted)
	return &c
}

func (v *isolationInvariant) AppendState(b []byte) []byte {
	b = appendList(b, v.seen)
	b = appendList(b, v.aborted)
	return appendInts(b, v.badKey)
}

// fencingInvariant folds, per producer id, the newest epoch a log has
// seen (from an appended record or a control record). Appending an OPEN
// record of an older epoch is a zombie write that got through.
type fencingInvariant struct {
	logs   []uint64
	pids   []int64 // sorted
	epochs []int64 // parallel to pids
	bad    [4]int64
	badOp  sim.OpID
}

func (v *fencingInvariant) Name() string { return "fencing" }

func (v *fencingInvariant) Record(e *sim.Event) {
	if !isLogPut(v.logs, e) {
		return
	}
	r := decodeLogRow(e.Rec)
	pid := r.PID
	if pid == 0 || (r.State != logOpen && r.State != logCommitMarker && r.State != logAbortMarker) {
		return
	}
	epoch := int64(r.Epoch)
	i, found := slices.BinarySearch(v.pids, pid)
	if !found {
		v.pids = slices.Insert(v.pids, i, pid)
		v.epochs = slices.Insert(v.epochs, i, epoch)
		return
	}
	if r.State == logOpen && epoch < v.epochs[i] && v.bad[0] == 0 {
		v.bad = [4]int64{e.Msg.Key, pid, epoch, v.epochs[i]}
		v.badOp = e.Msg.Op
	}
	v.epochs[i] = max(v.epochs[i], epoch)
}

func (v *fencingInvariant) Violation(f bool) string { return v.ViolationDetail(f).English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *fencingInvariant) ViolationDetail(bool) sim.Violation {
	if v.bad[0] == 0 {
		return sim.Violation{}
	}
	return sim.NewViolation("violation.fencing", 0,
		fmt.Sprintf("a zombie write got through: %s of producer %d epoch %d appended at offset %d after the partition saw epoch %d",
			v.badOp, v.bad[1], v.bad[2], v.bad[0], v.bad[3]),
		"Op", v.badOp.String(), "Producer", sim.Itoa(v.bad[1]), "Epoch", sim.Itoa(v.bad[2]),
		"Offset", sim.Itoa(v.bad[0]), "Seen", sim.Itoa(v.bad[3]))
}

func (v *fencingInvariant) Clone() sim.Invariant {
	c := *v
	c.pids = slices.Clone(v.pids)
	c.epochs = slices.Clone(v.epochs)
	return &c
}

func (v *fencingInvariant) AppendState(b []byte) []byte {
	b = appendList(b, v.pids)
	b = appendInts(b, v.epochs...)
	return appendInts(b, v.bad[:]...)
}

// readCounts counts effects per operation on one sink, observed or not,
// and reports how many operations had more than one.
type readCounts struct {
	sink   sim.SinkID
	name   string
	counts []int32 // by op
}

func (m *readCounts) Name() string { return m.name }

func (m *readCounts) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect || sim.SinkID(e.Label) != m.sink || e.Msg.Op <= 0 {
		return
	}
	for int(e.Msg.Op) >= len(m.counts) {
		m.counts = append(m.counts, 0)
	}
	m.counts[e.Msg.Op]++
}

func (m *readCounts) Value() float64 {
	n := 0
	for _, c := range m.counts {
		if c > 1 {
			n++
		}
	}
	return float64(n)
}
