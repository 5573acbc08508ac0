package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// HourlyAggregator is a batch job that reads the input log from the first
// offset and writes the total amount of every event-time hour to an
// hourly_totals table. Each record says its event's hour; an hour is
// written when an event of a later hour arrives, or the log ends.
//
// Its progress and partial sums live in memory. A crash after writing an
// hour (a crash point) restarts the job from the first offset: the same
// input, the same computation, the same totals — written again:
//
//   - append: INSERT a row per hour per write — the replayed hours are in
//     the table twice, and a reader summing them double counts;
//   - overwrite: INSERT … ON CONFLICT (hour) DO UPDATE SET total — the
//     replayed hours are replaced by identical totals.
//
// An event that arrives after its hour was written is late:
//
//   - ignore: it starts a new window for its hour, written when that window
//     closes — appended, a second row that adds it; overwritten, a partial
//     total that replaces the hour's full one;
//   - recompute: written hours are kept until the job ends; the late event
//     joins its hour, and the hour is written again at once — overwritten,
//     the full new total; appended, a correction row of the difference.
//
// Effects on hourly-totals count, per input event, the times it entered
// the table's totals: every appended row counts the events it adds; an
// overwritten row counts an event the first time the hour's row includes
// it (the included table is the sink's own record of that).
type HourlyAggregator struct {
	Input   sim.NodeID
	Sink    string // auto | append | overwrite
	Late    string // auto | ignore | recompute
	Timeout sim.Time
}

const (
	aggOutput   sim.TableID = iota // hourTotalRow under a row id (append) or the hour (overwrite)
	aggState                       // row 0: jobRow (volatile)
	aggWindows                     // hour → openHourRow (volatile)
	aggMembers                     // op → memberRow: events of the kept windows (volatile)
	aggIncluded                    // op → the hour whose overwritten row included it (durable, with the sink)
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
	hour := in.Hour
	if a.closeHoursBefore(ctx, hour) {
		return // crashed while writing
	}
	wrec, _ := ctx.Get(aggWindows, hour, m.Op)
	w := decodeOpenHourRow(wrec)
	w.Total += in.Record
	w.Events++
	ctx.Put(aggWindows, hour, m.Op, w.encode())
	ctx.Put(aggMembers, int64(m.Op), m.Op, memberRow{Hour: hour}.encode())
	if w.Emitted { // a late event, in a kept hour: write the hour again now
		a.write(ctx, hour, w)
		m := hourEmitted{Hour: hour}.encode(envelope{Op: m.Op})
		if ctx.CrashPoint(PointAfterEmit, &m) {
			return
		}
	}
	a.fetch(ctx, in.Position+1, 1)
}

// closeHoursBefore writes every open hour before hour and forgets it. It
// reports whether the job crashed on the way.
func (a *HourlyAggregator) closeHoursBefore(ctx *sim.Context, hour int64) bool {
	windows := ctx.Rows(aggWindows)
	for i := 0; i < windows.Len(); i++ {
		h, r := windows.At(i)
		if h >= hour {
			return false
		}
		w := decodeOpenHourRow(r)
		if w.Emitted {
			continue // written already, kept for late events
		}
		last := a.write(ctx, h, w)
		if a.recomputes(ctx) {
			w.Emitted, w.Written = true, w.Total
			ctx.Put(aggWindows, h, 0, w.encode())
		} else {
			ctx.Delete(aggWindows, h, 0)
			i--
		}
		m := hourEmitted{Hour: h}.encode(envelope{Op: last})
		if ctx.CrashPoint(PointAfterEmit, &m) {
			return true
		}
	}
	return false
}

// recomputes reports whether written hours are kept for late events.
func (a *HourlyAggregator) recomputes(ctx *sim.Context) bool {
	return pickByDesign(ctx, a.Late, "ignore", "recompute") == "recompute"
}

// write stores hour h's total and counts the effect on its events; it
// returns the hour's last event. A kept hour written again (a late event)
// appends the difference since its last write, or overwrites the row with
// the full new total.
func (a *HourlyAggregator) write(ctx *sim.Context, h int64, w openHourRow) sim.OpID {
	appending := pickByDesign(ctx, a.Sink, "append", "overwrite") == "append"
	if appending {
		id := int64(ctx.Rows(aggOutput).Len() + 1)
		ctx.Put(aggOutput, id, 0, hourTotalRow{Hour: int32(h), Total: w.Total - w.Written, Events: int64(w.Events)}.encode())
	} else {
		ctx.Put(aggOutput, h, 0, hourTotalRow{Hour: int32(h), Total: w.Total, Events: int64(w.Events)}.encode())
	}
	keep := a.recomputes(ctx)
	last := sim.OpID(0)
	members := ctx.Rows(aggMembers)
	for i := 0; i < members.Len(); {
		key, r := members.At(i)
		mr := decodeMemberRow(r)
		if mr.Hour != h {
			i++
			continue
		}
		last = sim.OpID(key)
		switch {
		case appending && !mr.Written:
			ctx.Effect(SinkHourlyTotals, last, w.Total)
		case !appending:
			if _, included := ctx.Get(aggIncluded, key, last); !included {
				ctx.Put(aggIncluded, key, last, memberRow{Hour: h}.encode())
				ctx.Effect(SinkHourlyTotals, last, w.Total)
			}
		}
		if keep {
			ctx.Put(aggMembers, key, last, memberRow{Hour: h, Written: true}.encode())
			i++
		} else {
			ctx.Delete(aggMembers, key, last)
		}
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

// buildHourlyaggregator builds a hourly-aggregator node from its options, each declared where it is read.
func buildHourlyaggregator(a *roles.Args) (sim.Node, []sim.TableSpec) {
	g := &HourlyAggregator{
		Input:   a.Node("input", "the input-log it reads"),
		Sink:    a.Enum("sink", "auto", []string{"auto", "append", "overwrite"}, "append a row per hour per write, or overwrite the hour's row; auto: append under alo, overwrite under idem"),
		Late:    a.Enum("on-late", "auto", []string{"auto", "ignore", "recompute"}, "a late event: start a new window for its hour, or recompute the written hour; auto: ignore under alo, recompute under idem"),
		Timeout: a.Duration("timeout", "1s", "how long it waits for a record before fetching it again"),
	}
	return g, []sim.TableSpec{
		{Name: "hourly_totals", Durable: true, Traced: true, States: hourNames},
		{Name: "progress"},
		{Name: "windows"},
		{Name: "members"},
		{Name: "included", Durable: true},
	}
}
