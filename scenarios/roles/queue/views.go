package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Typed views of the family's messages and rows. Role code reads and writes
// these named fields; only the encode/decode pairs below know which generic
// slot of sim.Message or sim.Record holds which field. Each view's doc
// comment lists its slots; a slot not listed is zero. Every pair is a plain
// value conversion: no allocation, and decode(encode(v)) == v over the
// documented ranges (views_test.go).

// envelope is the family's name for roles.Envelope: kind, operation and
// attempt, what every message carries besides its view.
type envelope = roles.Envelope

// publish is a record sent to a broker (MsgPublish). Slots: Payload = the
// record; Value = the producer id and Key = its sequence number, both 0
// when the producer is not idempotent.
type publish struct {
	Record     int64
	ProducerID int64
	Sequence   int64
}

func (v publish) encode(e envelope) sim.Message {
	m := e.Message()
	m.Payload, m.Value, m.Key = v.Record, v.ProducerID, v.Sequence
	return m
}

func decodePublish(m sim.Message) publish {
	return publish{Record: m.Payload, ProducerID: m.Value, Sequence: m.Key}
}

// publishAck is a broker's answer to a publish (MsgPublishAck). Slots: Key
// = the offset the record has in the log (0: none, a duplicate or a
// refusal); Payload = the sequence number it answers (0: none); Status =
// the answer (0 from a broker that only appends; 201 appended, 200 a
// duplicate already in the log, 409 out of order).
type publishAck struct {
	Offset   int64
	Sequence int64
	Status   int32
}

func (v publishAck) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload, m.Status = v.Offset, v.Sequence, v.Status
	return m
}

func decodePublishAck(m sim.Message) publishAck {
	return publishAck{Offset: m.Key, Sequence: m.Payload, Status: m.Status}
}

// delivery is a record a broker delivers to its consumer (MsgDeliver); the
// envelope's Attempt is the delivery count. Slots: Key = the record's
// offset; Payload = the record.
type delivery struct {
	Offset int64
	Record int64
}

func (v delivery) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload = v.Offset, v.Record
	return m
}

func decodeDelivery(m sim.Message) delivery { return delivery{Offset: m.Key, Record: m.Payload} }

// offsetCommit is a consumer's acknowledgement of a delivery (MsgCommit).
// Slots: Key = the offset processed.
type offsetCommit struct {
	Offset int64
}

func (v offsetCommit) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key = v.Offset
	return m
}

func decodeOffsetCommit(m sim.Message) offsetCommit { return offsetCommit{Offset: m.Key} }

// fetch asks a log for the entry at a position: the outbox row after the
// relay's position (MsgOutboxFetch), the input record at an offset
// (MsgReadInput). Slots: Key = the position.
type fetch struct {
	Position int64
}

func (v fetch) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key = v.Position
	return m
}

func decodeFetch(m sim.Message) fetch { return fetch{Position: m.Key} }

// fetched answers a fetch (MsgOutboxRow, MsgInputRecord). Slots: Key = the
// position asked for; Status = 200, or statusEndOfLog when there is no
// entry there (yet); Payload = the entry's record (0 at the end); Value =
// the event-time hour of an input log's event (0 otherwise).
type fetched struct {
	Position int64
	Status   int32
	Record   int64
	Hour     int64
}

func (v fetched) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Status, m.Payload, m.Value = v.Position, v.Status, v.Record, v.Hour
	return m
}

func decodeFetched(m sim.Message) fetched {
	return fetched{Position: m.Key, Status: m.Status, Record: m.Payload, Hour: m.Value}
}

// logRow is a broker's log entry, keyed by offset (the broker's and the
// replaying broker's log). Slots: Value = the operation that published it;
// State = recordUnacked or recordAcked; Aux = deliveries so far; Status =
// 1 once it has been committed at least once (replaying broker only); At =
// the first commit's time (replaying broker; 0: now, as written).
type logRow struct {
	Op          sim.OpID
	State       int32
	Deliveries  int32
	Committed   bool
	FirstCommit sim.Time
}

func (v logRow) encode() sim.Record {
	r := sim.Record{Value: int64(v.Op), State: v.State, Aux: int64(v.Deliveries), At: v.FirstCommit}
	if v.Committed {
		r.Status = 1
	}
	return r
}

func decodeLogRow(r sim.Record) logRow {
	return logRow{Op: sim.OpID(r.Value), State: r.State, Deliveries: int32(r.Aux), Committed: r.Status != 0, FirstCommit: r.At}
}

// opRow is a producer's row for one operation (the ops table). Slots:
// State = roles.OpPending or roles.OpDone; Value = the latest attempt
// sent; Aux = the sequence number the record was given (idempotent
// producer; 0 otherwise).
type opRow struct {
	State    int32
	Attempt  int32
	Sequence int64
}

func (v opRow) encode() sim.Record {
	return sim.Record{State: v.State, Value: int64(v.Attempt), Aux: v.Sequence}
}

func decodeOpRow(r sim.Record) opRow {
	return opRow{State: r.State, Attempt: int32(r.Value), Sequence: r.Aux}
}

// placedOrderRow is an outbox service's committed order (keyed by op).
// Slots: State = 1 (placed); Value = the order's amount.
type placedOrderRow struct {
	Amount int64
}

func (v placedOrderRow) encode() sim.Record { return sim.Record{State: 1, Value: v.Amount} }

func decodePlacedOrderRow(r sim.Record) placedOrderRow { return placedOrderRow{Amount: r.Value} }

// outboxRow is a row of the outbox table (keyed by sequence number).
// Slots: State = 1 (ORDER-PLACED); Value = the operation; Aux = the event's
// record (the order's amount).
type outboxRow struct {
	Op     sim.OpID
	Record int64
}

func (v outboxRow) encode() sim.Record {
	return sim.Record{State: 1, Value: int64(v.Op), Aux: v.Record}
}

func decodeOutboxRow(r sim.Record) outboxRow { return outboxRow{Op: sim.OpID(r.Value), Record: r.Aux} }

// attemptRow is the latest publish attempt of an operation (a dual-write
// publish awaiting its ack, a relay's publishes so far). Slots: Value = the
// attempt.
type attemptRow struct {
	Attempt int32
}

func (v attemptRow) encode() sim.Record { return sim.Record{Value: int64(v.Attempt)} }

func decodeAttemptRow(r sim.Record) attemptRow { return attemptRow{Attempt: int32(r.Value)} }

// positionRow is a relay's saved position (row 0). Slots: Value = the last
// outbox sequence number published.
type positionRow struct {
	Sequence int64
}

func (v positionRow) encode() sim.Record { return sim.Record{Value: v.Sequence} }

func decodePositionRow(r sim.Record) positionRow { return positionRow{Sequence: r.Value} }

// relayStateRow is a relay's volatile state (row 0). Slots: State =
// relayIdle, relayFetching or relayPublishing; Value = the sequence number
// being published; Aux = its operation (both 0 unless publishing).
type relayStateRow struct {
	Phase    int32
	Sequence int64
	Op       sim.OpID
}

func (v relayStateRow) encode() sim.Record {
	return sim.Record{State: v.Phase, Value: v.Sequence, Aux: int64(v.Op)}
}

func decodeRelayStateRow(r sim.Record) relayStateRow {
	return relayStateRow{Phase: r.State, Sequence: r.Value, Op: sim.OpID(r.Aux)}
}

// hourEmitted names the hour an aggregator has just written, for the
// after-emit crash point (it is never sent). Slots: Op = the hour's last
// event; Key = the hour.
type hourEmitted struct {
	Hour int64
}

func (v hourEmitted) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key = v.Hour
	return m
}

func decodeHourEmitted(m sim.Message) hourEmitted { return hourEmitted{Hour: m.Key} }

// hourTotalRow is a row of the hourly-totals table (under a row id when
// appending, under the hour when overwriting). Slots: State = the hour;
// Value = the total; Aux = the events counted.
type hourTotalRow struct {
	Hour   int32
	Total  int64
	Events int64
}

func (v hourTotalRow) encode() sim.Record {
	return sim.Record{State: v.Hour, Value: v.Total, Aux: v.Events}
}

func decodeHourTotalRow(r sim.Record) hourTotalRow {
	return hourTotalRow{Hour: r.State, Total: r.Value, Events: r.Aux}
}

// jobRow is the aggregator's progress (row 0). Slots: Value = the next
// offset to read; Aux = the fetch attempt for it; State = 1 once the job
// has finished.
type jobRow struct {
	Next     int64
	Attempt  int32
	Finished bool
}

func (v jobRow) encode() sim.Record {
	r := sim.Record{Value: v.Next, Aux: int64(v.Attempt)}
	if v.Finished {
		r.State = 1
	}
	return r
}

func decodeJobRow(r sim.Record) jobRow {
	return jobRow{Next: r.Value, Attempt: int32(r.Aux), Finished: r.State != 0}
}

// openHourRow is an hour's running total (keyed by hour). Slots: Value =
// the running total; State = the events so far; Aux = the total last
// written to the sink; Status = 1 once the hour has been emitted and is
// kept for late events.
type openHourRow struct {
	Total   int64
	Events  int32
	Written int64
	Emitted bool
}

func (v openHourRow) encode() sim.Record {
	return sim.Record{Value: v.Total, State: v.Events, Aux: v.Written, Status: boolInt32(v.Emitted)}
}

func decodeOpenHourRow(r sim.Record) openHourRow {
	return openHourRow{Total: r.Value, Events: r.State, Written: r.Aux, Emitted: r.Status == 1}
}

// memberRow is the hour an event was counted in (keyed by op). Slots:
// Value = the hour; State = 1 once a write to the sink included it.
type memberRow struct {
	Hour    int64
	Written bool
}

func (v memberRow) encode() sim.Record { return sim.Record{Value: v.Hour, State: boolInt32(v.Written)} }

func decodeMemberRow(r sim.Record) memberRow { return memberRow{Hour: r.Value, Written: r.State == 1} }

// boolInt32 is 1 for true, 0 for false: a flag in a record slot.
func boolInt32(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// balanceRow is a booking's paid total (keyed by booking). Slots: Value =
// the total; Aux = the version of the total (the number, within its
// booking, of the latest payment it includes); State = the number of the
// payment whose delivery wrote the row; At = when it was written (0: now).
type balanceRow struct {
	Total   int64
	Version int64
	Payment int32
	At      sim.Time
}

func (v balanceRow) encode() sim.Record {
	return sim.Record{Value: v.Total, Aux: v.Version, State: v.Payment, At: v.At}
}

func decodeBalanceRow(r sim.Record) balanceRow {
	return balanceRow{Total: r.Value, Version: r.Aux, Payment: r.State, At: r.At}
}
