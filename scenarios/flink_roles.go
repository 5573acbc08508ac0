package scenarios

import "github.com/oncesim/once/sim"

func init() {
	registerRole(&Role{
		Name: "flink-jobmanager",
		Doc:  "checkpoint coordinator: triggers checkpoints, completes them when every task acknowledged, notifies the sink, fails the job over to the latest completed checkpoint",
		Options: []RoleOption{
			{Name: "source", Kind: "node", Doc: "the source task"},
			{Name: "sink", Kind: "node", Doc: "the sink task"},
			{Name: "interval", Kind: "duration", Default: "200ms", Doc: "checkpoint interval"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			j := &FlinkJobManager{Source: a.Node("source"), Sink: a.Node("sink"), Interval: a.PositiveDuration("interval", 200)}
			return j, flinkJobManagerTables()
		},
	})
	registerRole(&Role{
		Name: "flink-source",
		Doc:  "a replayable source (record n is operation n): emits records, snapshots its offset and emits a barrier on each checkpoint",
		Options: []RoleOption{
			{Name: "jobmanager", Kind: "node", Doc: "the checkpoint coordinator"},
			{Name: "sink", Kind: "node", Doc: "where the stream goes"},
			{Name: "interval", Kind: "duration", Default: "50ms", Doc: "time between two records"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			s := &FlinkSource{JobManager: a.Node("jobmanager"), Sink: a.Node("sink"), Interval: a.PositiveDuration("interval", 50)}
			return s, flinkSourceTables()
		},
	})
	registerRole(&Role{
		Name: "flink-sink",
		Doc:  "writes the stream to an external database: two-phase commit on checkpoints under txn, plain writes otherwise",
		Options: []RoleOption{
			{Name: "jobmanager", Kind: "node", Doc: "the checkpoint coordinator"},
			{Name: "source", Kind: "node", Doc: "the upstream task it asks for the stream"},
			{Name: "db", Kind: "node", Doc: "the external database (role external-db)"},
			{Name: "retry", Kind: "duration", Default: "1s", Doc: "how often it repeats its registration until deployed"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			s := &FlinkSink{JobManager: a.Node("jobmanager"), Source: a.Node("source"), DB: a.Node("db"), RetryAfter: a.PositiveDuration("retry", 1000)}
			return s, flinkSinkTables()
		},
	})
	registerMetric(&MetricSpec{
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
