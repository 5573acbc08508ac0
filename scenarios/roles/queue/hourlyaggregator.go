package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// HourlyAggregator is a batch job that reads the input log from the first
// offset and writes the total amount of every event-time hour to an
// hourly_totals table. Event op belongs to hour (op-1)/PerHour; an hour is
// written when the first event of a later hour arrives, or the log ends.
//
// Its progress and partial sums live in memory. A crash after writing an
// hour (a crash point) restarts the job from the first offset: the same
// input, the same computation, the same totals — written again:
//
//   - append: INSERT a row per hour per run — the replayed hours are in the
//     table twice, and a reader summing them double counts;
//   - overwrite: INSERT … ON CONFLICT (hour) DO UPDATE SET total — the
//     replayed hours are replaced by identical totals.
//
// Effects on hourly-totals count, per input event, the times it entered
// the table's totals: every appended row counts its events; an overwrite
// counts them only if the stored total changed.
type HourlyAggregator struct {
	Input   sim.NodeID
	Sink    string // auto | append | overwrite
	PerHour int64
	Timeout sim.Time
}

const (
	aggOutput  sim.TableID = iota // hourTotalRow under a row id (append) or the hour (overwrite)
	aggState                      // row 0: jobRow (volatile)
	aggWindows                    // hour → openHourRow (volatile)
	aggMembers                    // op → memberRow: events of the open windows (volatile)
)

// Start runs the job from the first offset.
func (a *HourlyAggregator) Start(ctx *sim.Context) { a.fetch(ctx, 1, 1) }

func (a *HourlyAggregator) fetch(ctx *sim.Context, offset int64, attempt int32) {
	ctx.Put(aggState, 0, 0, jobRow{Next: offset, Attempt: attempt}.encode())
	ctx.Send(a.Input, fetch{Position: offset}.encode(envelope{Kind: MsgReadInput, Op: sim.OpID(offset), Attempt: attempt}))
	ctx.After(a.Timeout, sim.Timer{Kind: roles.TimerRetry, Op: sim.OpID(offset), Attempt: attempt, Key: offset})
}

// Timer refetches a record that did not arrive in time.
func (a *HourlyAggregator) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != roles.TimerRetry {
		return
	}
	rec, _ := ctx.Get(aggState, 0, 0)
	if st := decodeJobRow(rec); !st.Finished && st.Next == t.Key && st.Attempt == t.Attempt {
		a.fetch(ctx, t.Key, t.Attempt+1)
	}
}

// Receive folds the next record into its hour, closing the hours before it.
func (a *HourlyAggregator) Receive(ctx *sim.Context, m sim.Message) {
	rec, _ := ctx.Get(aggState, 0, m.Op)
	st, in := decodeJobRow(rec), decodeFetched(m)
	if m.Kind != MsgInputRecord || st.Finished || in.Position != st.Next {
		return // a late or duplicated answer
	}
	if in.Status != roles.StatusOK { // the end of the log: write the last hour
		ctx.Put(aggState, 0, 0, jobRow{Finished: true}.encode())
		a.closeHoursBefore(ctx, 1<<62)
		return
	}
	hour := (int64(m.Op) - 1) / a.PerHour
	if a.closeHoursBefore(ctx, hour) {
		return // crashed while writing
	}
	wrec, _ := ctx.Get(aggWindows, hour, m.Op)
	w := decodeOpenHourRow(wrec)
	w.Total += in.Record
	w.Events++
	ctx.Put(aggWindows, hour, m.Op, w.encode())
	ctx.Put(aggMembers, int64(m.Op), m.Op, memberRow{Hour: hour}.encode())
	a.fetch(ctx, in.Position+1, 1)
}

// closeHoursBefore writes every open hour before hour and forgets it. It
// reports whether the job crashed on the way.
func (a *HourlyAggregator) closeHoursBefore(ctx *sim.Context, hour int64) bool {
	windows := ctx.Rows(aggWindows)
	for windows.Len() > 0 {
		h, w := windows.At(0)
		if h >= hour {
			return false
		}
		last := a.write(ctx, h, decodeOpenHourRow(w))
		ctx.Delete(aggWindows, h, 0)
		m := hourEmitted{Hour: h}.encode(envelope{Op: last})
		if ctx.CrashPoint(PointAfterEmit, &m) {
			return true
		}
	}
	return false
}

// write stores hour h's total and counts the effect on its events; it
// returns the hour's last event.
func (a *HourlyAggregator) write(ctx *sim.Context, h int64, w openHourRow) sim.OpID {
	changed := true
	row := hourTotalRow{Hour: int32(h), Total: w.Total, Events: w.Events}.encode()
	if pickByDesign(ctx, a.Sink, "append", "overwrite") == "append" {
		id := int64(ctx.Rows(aggOutput).Len() + 1)
		ctx.Put(aggOutput, id, 0, row)
	} else {
		old, ok := ctx.Get(aggOutput, h, 0)
		o := decodeHourTotalRow(old)
		changed = !ok || o.Total != w.Total || o.Events != w.Events
		ctx.Put(aggOutput, h, 0, row)
	}
	last := sim.OpID(0)
	members := ctx.Rows(aggMembers)
	for i := 0; i < members.Len(); {
		key, r := members.At(i)
		if decodeMemberRow(r).Hour != h {
			i++
			continue
		}
		last = sim.OpID(key)
		if changed {
			ctx.Effect(SinkHourlyTotals, last, w.Total)
		}
		ctx.Delete(aggMembers, key, last)
	}
	return last
}

// hourNames names the hours of yesterday in traces: state 3 is "03:00".
var hourNames = func() []string {
	names := make([]string, 24)
	for h := range names {
		names[h] = string(rune('0'+h/10)) + string(rune('0'+h%10)) + ":00"
	}
	return names
}()

var (
	hourlyAggregatorInput   = roles.Node("input", "the input-log it reads")
	hourlyAggregatorSink    = roles.Enum("sink", "auto", []string{"auto", "append", "overwrite"}, "append a row per hour per run, or overwrite the hour's row; auto: append under alo, overwrite under idem")
	hourlyAggregatorPerHour = roles.Int("per-hour", 3, 1, 1000, "events per hour of event time")
	hourlyAggregatorTimeout = roles.Duration("timeout", "1s", "how long it waits for a record before fetching it again")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "hourly-aggregator",
		Doc:     "a batch job summing events per event-time hour into hourly_totals (append or overwrite); restarts from the first offset after a crash",
		Options: []roles.Option{hourlyAggregatorInput, hourlyAggregatorSink, hourlyAggregatorPerHour, hourlyAggregatorTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			g := &HourlyAggregator{
				Input: hourlyAggregatorInput.Get(a), Sink: hourlyAggregatorSink.Get(a),
				PerHour: hourlyAggregatorPerHour.Get(a), Timeout: hourlyAggregatorTimeout.Get(a),
			}
			return g, []sim.TableSpec{
				{Name: "hourly_totals", Durable: true, Traced: true, States: hourNames},
				{Name: "progress"},
				{Name: "windows"},
				{Name: "members"},
			}
		},
	})
}
