package flink

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/sim"
)

// visibilityLatency folds, per operation, when the source first emitted
// it and when its first row was committed, and averages the difference:
// the price of a two-phase-commit sink is that nothing is visible before
// the checkpoint completes.
type visibilityLatency struct {
	emitted   []sim.Time // by op; -1 = not yet
	committed []sim.Time
}

func (m *visibilityLatency) Name() string { return "visibility-latency" }

func (m *visibilityLatency) grow(op sim.OpID) {
	for int(op) >= len(m.emitted) {
		m.emitted = append(m.emitted, -1)
		m.committed = append(m.committed, -1)
	}
}

func (m *visibilityLatency) Record(e *sim.Event) {
	op := e.Msg.Op
	if op <= 0 {
		return
	}
	switch {
	case e.Kind == sim.EvSend && e.Msg.Kind == MsgRecord:
		m.grow(op)
		if m.emitted[op] < 0 {
			m.emitted[op] = e.At
		}
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == kafka.SinkDBRows:
		m.grow(op)
		if m.committed[op] < 0 {
			m.committed[op] = e.At
		}
	}
}

func (m *visibilityLatency) Value() float64 {
	sum, n := 0.0, 0
	for op := range m.emitted {
		if m.emitted[op] >= 0 && m.committed[op] >= 0 {
			sum += float64(m.committed[op] - m.emitted[op])
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func registerLatency(c *roles.Catalog) {
	c.RegisterMetric(&roles.MetricSpec{
		Name: "visibility-latency",
		Unit: "ms",
		Doc:  "mean virtual ms from a record's first emission by the source to its first committed row in the database",
		New:  func(*sim.Topology) sim.Metric { return &visibilityLatency{} },
	})
}
