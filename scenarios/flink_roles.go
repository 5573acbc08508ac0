package scenarios

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

var (
	flinkJobmanagerSource   = roles.Node("source", "the source task")
	flinkJobmanagerSink     = roles.Node("sink", "the sink task")
	flinkJobmanagerInterval = roles.PositiveDuration("interval", "200ms", "checkpoint interval")
	flinkSourceJobmanager   = roles.Node("jobmanager", "the checkpoint coordinator")
	flinkSourceSink         = roles.Node("sink", "where the stream goes")
	flinkSourceInterval     = roles.PositiveDuration("interval", "50ms", "time between two records")
	flinkSinkJobmanager     = roles.Node("jobmanager", "the checkpoint coordinator")
	flinkSinkSource         = roles.Node("source", "the upstream task it asks for the stream")
	flinkSinkDB             = roles.Node("db", "the external database (role external-db)")
	flinkSinkRetry          = roles.PositiveDuration("retry", "1s", "how often it repeats its registration until deployed")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "flink-jobmanager",
		Doc:     "checkpoint coordinator: triggers checkpoints, completes them when every task acknowledged, notifies the sink, fails the job over to the latest completed checkpoint",
		Options: []roles.Option{flinkJobmanagerSource, flinkJobmanagerSink, flinkJobmanagerInterval},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			j := &FlinkJobManager{Source: flinkJobmanagerSource.Get(a), Sink: flinkJobmanagerSink.Get(a), Interval: flinkJobmanagerInterval.Get(a)}
			return j, flinkJobManagerTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "flink-source",
		Doc:     "a replayable source (record n is operation n): emits records, snapshots its offset and emits a barrier on each checkpoint",
		Options: []roles.Option{flinkSourceJobmanager, flinkSourceSink, flinkSourceInterval},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &FlinkSource{JobManager: flinkSourceJobmanager.Get(a), Sink: flinkSourceSink.Get(a), Interval: flinkSourceInterval.Get(a)}
			return s, flinkSourceTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "flink-sink",
		Doc:     "writes the stream to an external database: two-phase commit on checkpoints under txn, plain writes otherwise",
		Options: []roles.Option{flinkSinkJobmanager, flinkSinkSource, flinkSinkDB, flinkSinkRetry},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			s := &FlinkSink{JobManager: flinkSinkJobmanager.Get(a), Source: flinkSinkSource.Get(a), DB: flinkSinkDB.Get(a), RetryAfter: flinkSinkRetry.Get(a)}
			return s, flinkSinkTables()
		},
	})
	roles.RegisterMetric(&roles.MetricSpec{
		Name: "visibility-latency",
		Doc:  "mean virtual ms from a record's first emission by the source to its first committed row in the database",
		New:  func(*sim.Topology) sim.Metric { return &visibilityLatency{} },
	})
}

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
	case e.Kind == sim.EvSend && e.Msg.Kind == MsgFlinkRecord:
		m.grow(op)
		if m.emitted[op] < 0 {
			m.emitted[op] = e.At
		}
	case e.Kind == sim.EvEffect && sim.SinkID(e.Label) == SinkDBRows:
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
