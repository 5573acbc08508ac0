package kafka

import (
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func registerOpentxn(c *roles.Catalog) {
	c.RegisterMetric(&roles.MetricSpec{
		Name: "open-txn-ms",
		Unit: "ms",
		Doc:  "the longest time, in milliseconds, a transaction kept records OPEN in the output log — how long it held back the last stable offset and every read_committed reader",
		New:  func(topo *sim.Topology) sim.Metric { return &openTxn{logs: logTables(topo)} },
	})
}

// openTxn folds, per producer id, when its first OPEN record was appended
// and, at its next control record, how long the transaction was open. A
// transaction still open at the end counts up to the last event.
type openTxn struct {
	logs    []uint64
	pids    []int64    // sorted: producers with an open transaction
	since   []sim.Time // parallel to pids
	longest sim.Time
	last    sim.Time
}

func (m *openTxn) Name() string { return "open-txn-ms" }

func (m *openTxn) Record(e *sim.Event) {
	m.last = max(m.last, e.At)
	if !isLogPut(m.logs, e) {
		return
	}
	r := decodeLogRow(e.Rec)
	if r.PID == 0 {
		return
	}
	i, found := slices.BinarySearch(m.pids, r.PID)
	switch r.State {
	case logOpen:
		if !found {
			m.pids = slices.Insert(m.pids, i, r.PID)
			m.since = slices.Insert(m.since, i, e.At)
		}
	case logCommitMarker, logAbortMarker:
		if found {
			m.longest = max(m.longest, e.At-m.since[i])
			m.pids = slices.Delete(m.pids, i, i+1)
			m.since = slices.Delete(m.since, i, i+1)
		}
	}
}

func (m *openTxn) Value() float64 {
	longest := m.longest
	for _, s := range m.since {
		longest = max(longest, m.last-s)
	}
	return float64(longest)
}
