package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// ReplayingBroker is a broker whose consumer-group offsets are restored
// from a backup when it restarts. Like Broker it keeps a durable log,
// pushes each record to the consumer and redelivers it every Visibility
// until its offset is committed (under at-most-once it delivers once).
//
// It may lose its disk right after recording a commit (a crash point).
// On restart the log is intact but the committed offsets come from a
// snapshot Replay old: every record first committed within the last Replay
// is uncommitted again and delivered anew — a replay whose oldest records
// are about Replay (plus the downtime) older than their first processing.
// Then it redelivers whatever is uncommitted, because its redelivery
// timers died with it.
type ReplayingBroker struct {
	Consumer   sim.NodeID
	Visibility sim.Time
	Replay     sim.Time
}

// Log record states are recordUnacked and recordAcked (see Broker). A
// committed record keeps in At the time of its first commit, and Status 1.
const (
	replayLog  sim.TableID = iota // offset → logRow
	replaySeen                    // (op, attempt) publishes seen: at-most-once transport dedup
)

// Start restores the committed offsets from the backup (after a crash;
// at the first boot the log is empty) and redelivers what is uncommitted.
func (b *ReplayingBroker) Start(ctx *sim.Context) {
	log := ctx.Rows(replayLog)
	for i := 0; i < log.Len(); i++ {
		offset, rec := log.At(i)
		if r := decodeLogRow(rec); r.State == recordAcked && r.FirstCommit > ctx.Now()-b.Replay {
			r.State = recordUnacked // committed after the snapshot was taken
			ctx.Put(replayLog, offset, r.Op, r.encode())
		}
	}
	for i := 0; i < log.Len(); i++ {
		if offset, r := log.At(i); decodeLogRow(r).State != recordAcked {
			b.deliver(ctx, offset)
		}
	}
}

// Receive appends a published record, or records a commit.
func (b *ReplayingBroker) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgPublish:
		if ctx.Semantics() == sim.AtMostOnce && transportDup(ctx, replaySeen, opAttemptKey(m.Op, m.Attempt), m.Op) {
			return
		}
		offset := appendPublished(ctx, replayLog, &m, logRow{Op: m.Op, State: recordUnacked}.encode())
		b.deliver(ctx, offset)
	case MsgCommit:
		offset := decodeOffsetCommit(m).Offset
		rec, ok := ctx.Get(replayLog, offset, m.Op)
		r := decodeLogRow(rec)
		if !ok || r.State == recordAcked {
			return
		}
		r.State = recordAcked
		if !r.Committed {
			r.Committed, r.FirstCommit = true, max(ctx.Now(), 1) // the first commit's time
		}
		ctx.Put(replayLog, offset, m.Op, r.encode())
		ctx.CrashPoint(PointAfterOffsetWrite, &m)
	}
}

func (b *ReplayingBroker) deliver(ctx *sim.Context, offset int64) {
	r, d := nextDelivery(ctx, replayLog, offset)
	ctx.Send(b.Consumer, d)
	if ctx.Semantics() != sim.AtMostOnce {
		ctx.After(b.Visibility, redeliveryTimer(roles.TimerRedeliver, r, offset))
	}
}

// Timer redelivers a record whose offset was not committed in time.
func (b *ReplayingBroker) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind == roles.TimerRedeliver && latestUnacked(ctx, replayLog, t) {
		b.deliver(ctx, t.Key)
	}
}

// oldestDuplicate is the metric "oldest-duplicate-age": the age, in
// seconds, of the oldest dedup entry that a redelivered or replayed record
// ran into (expired or not). Compared with the dedup TTL it tells how long
// the retention must be: the horizon the run actually produced.
type oldestDuplicate struct {
	dedup []uint64 // per node: bit i set when table i is named "dedup"
	max   sim.Time
}

func newOldestDuplicate(topo *sim.Topology) *oldestDuplicate {
	o := &oldestDuplicate{dedup: make([]uint64, len(topo.Nodes))}
	for n, spec := range topo.Nodes {
		for i, t := range spec.Tables {
			if t.Name == "dedup" && i < 64 {
				o.dedup[n] |= 1 << i
			}
		}
	}
	return o
}

// Name implements sim.Metric.
func (o *oldestDuplicate) Name() string { return "oldest-duplicate-age" }

// Record implements sim.Recorder.
func (o *oldestDuplicate) Record(e *sim.Event) {
	if e.Kind != sim.EvStoreGet || !e.Found || int(e.Node) >= len(o.dedup) || e.Label >= 64 || o.dedup[e.Node]&(1<<e.Label) == 0 {
		return
	}
	o.max = max(o.max, e.At-e.Rec.At)
}

// Value implements sim.Metric.
func (o *oldestDuplicate) Value() float64 { return float64(o.max) / 1000 }

func registerReplay(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name: "replaying-broker",
		Doc:  "a broker whose consumer offsets are restored from a backup when it restarts: records committed within the replay horizon are delivered again",
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			b := &ReplayingBroker{
				Consumer:   brokerConsumer(a),
				Visibility: brokerVisibility(a),
				Replay:     a.Duration("replay", "1m", "age of the offsets backup restored after a crash: records first committed within it are replayed"),
			}
			return b, []sim.TableSpec{{Name: "log", Durable: true, States: []string{"UNCOMMITTED", "COMMITTED"}}, {Name: "seen", Durable: true}}
		},
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "oldest-duplicate-age",
		Unit: "s",
		Doc:  "seconds: the age of the oldest dedup entry a redelivered or replayed record found (expired or not) — the retry/replay horizon the run produced",
		New:  func(topo *sim.Topology) sim.Metric { return newOldestDuplicate(topo) },
	})
}
