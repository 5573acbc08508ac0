package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Typed views of the family's messages and rows. Role code reads and writes
// these named fields; each field's slot tag says which generic slot of
// sim.Message or sim.Record holds it, and viewgen writes the codecs from
// the tags (views_gen.go: `go generate`, never by hand). Each view's doc
// comment lists its slots and their ranges; a slot not listed is zero.
// Every codec is a plain value conversion: no allocation, and
// decode(encode(v)) == v over the documented ranges (views_gen_test.go).

//go:generate go run ../viewgen

// envelope is the family's name for roles.Envelope: kind, operation and
// attempt, what every message carries besides its view.
type envelope = roles.Envelope

// publish is a record sent to a broker (MsgPublish). Slots: Payload = the
// record; Value = the producer id and Key = its sequence number, both 0
// when the producer is not idempotent.
//
//viewgen:message envelope
type publish struct {
	Record     int64 `slot:"Payload"`
	ProducerID int64 `slot:"Value"`
	Sequence   int64 `slot:"Key"`
}

// publishAck is a broker's answer to a publish (MsgPublishAck). Slots: Key
// = the offset the record has in the log (0: none, a duplicate or a
// refusal); Payload = the sequence number it answers (0: none); Status =
// the answer (0 from a broker that only appends; 201 appended, 200 a
// duplicate already in the log, 409 out of order).
//
//viewgen:message envelope
type publishAck struct {
	Offset   int64 `slot:"Key"`
	Sequence int64 `slot:"Payload"`
	Status   int32 `slot:"Status"`
}

// delivery is a record a broker delivers to its consumer (MsgDeliver); the
// envelope's Attempt is the delivery count. Slots: Key = the record's
// offset; Payload = the record.
//
//viewgen:message envelope
type delivery struct {
	Offset int64 `slot:"Key"`
	Record int64 `slot:"Payload"`
}

// offsetCommit is a consumer's acknowledgement of a delivery (MsgCommit).
// Slots: Key = the offset processed.
//
//viewgen:message envelope
type offsetCommit struct {
	Offset int64 `slot:"Key"`
}

// fetch asks a log for the entry at a position: the outbox row after the
// relay's position (MsgOutboxFetch), the input record at an offset
// (MsgReadInput). Slots: Key = the position.
//
//viewgen:message envelope
type fetch struct {
	Position int64 `slot:"Key"`
}

// fetched answers a fetch (MsgOutboxRow, MsgInputRecord). Slots: Key = the
// position asked for; Status = 200, or statusEndOfLog when there is no
// entry there (yet); Payload = the entry's record (0 at the end); Value =
// the event-time hour of an input log's event (0 otherwise).
//
//viewgen:message envelope
type fetched struct {
	Position int64 `slot:"Key"`
	Status   int32 `slot:"Status"`
	Record   int64 `slot:"Payload"`
	Hour     int64 `slot:"Value"`
}

// logRow is a broker's log entry, keyed by offset (the broker's and the
// replaying broker's log). Slots: Value = the operation that published it;
// State = recordUnacked or recordAcked; Aux = deliveries so far; Status =
// 1 once it has been committed at least once (replaying broker only); At =
// the first commit's time (replaying broker; 0: now, as written).
//
//viewgen:record
type logRow struct {
	Op          sim.OpID `slot:"Value"`
	State       int32    `slot:"State"`
	Deliveries  int32    `slot:"Aux"`
	Committed   bool     `slot:"Status"`
	FirstCommit sim.Time `slot:"At"`
}

// opRow is a producer's row for one operation (the ops table). Slots:
// State = roles.OpPending or roles.OpDone; Value = the latest attempt
// sent; Aux = the sequence number the record was given (idempotent
// producer; 0 otherwise).
//
//viewgen:record
type opRow struct {
	State    int32 `slot:"State"`
	Attempt  int32 `slot:"Value"`
	Sequence int64 `slot:"Aux"`
}

// placedOrderRow is an outbox service's committed order (keyed by op).
// Slots: State = 1 (placed); Value = the order's amount.
//
//viewgen:record State=1
type placedOrderRow struct {
	Amount int64 `slot:"Value"`
}

// outboxRow is a row of the outbox table (keyed by sequence number).
// Slots: State = 1 (ORDER-PLACED); Value = the operation; Aux = the event's
// record (the order's amount).
//
//viewgen:record State=1
type outboxRow struct {
	Op     sim.OpID `slot:"Value"`
	Record int64    `slot:"Aux"`
}

// attemptRow is the latest publish attempt of an operation (a dual-write
// publish awaiting its ack, a relay's publishes so far). Slots: Value = the
// attempt.
//
//viewgen:record
type attemptRow struct {
	Attempt int32 `slot:"Value"`
}

// positionRow is a relay's saved position (row 0). Slots: Value = the last
// outbox sequence number published.
//
//viewgen:record
type positionRow struct {
	Sequence int64 `slot:"Value"`
}

// relayStateRow is a relay's volatile state (row 0). Slots: State =
// relayIdle, relayFetching or relayPublishing; Value = the sequence number
// being published; Aux = its operation (both 0 unless publishing).
//
//viewgen:record
type relayStateRow struct {
	Phase    int32    `slot:"State"`
	Sequence int64    `slot:"Value"`
	Op       sim.OpID `slot:"Aux"`
}

// hourEmitted names the hour an aggregator has just written, for the
// after-emit crash point (it is never sent). Slots: Op = the hour's last
// event; Key = the hour.
//
//viewgen:message envelope
type hourEmitted struct {
	Hour int64 `slot:"Key"`
}

// hourTotalRow is a row of the hourly-totals table (under a row id when
// appending, under the hour when overwriting). Slots: State = the hour;
// Value = the total; Aux = the events counted.
//
//viewgen:record
type hourTotalRow struct {
	Hour   int32 `slot:"State"`
	Total  int64 `slot:"Value"`
	Events int64 `slot:"Aux"`
}

// jobRow is the aggregator's progress (row 0). Slots: Value = the next
// offset to read; Aux = the fetch attempt for it; State = 1 once the job
// has finished.
//
//viewgen:record
type jobRow struct {
	Next     int64 `slot:"Value"`
	Attempt  int32 `slot:"Aux"`
	Finished bool  `slot:"State"`
}

// openHourRow is an hour's running total (keyed by hour). Slots: Value =
// the running total; State = the events so far; Aux = the total last
// written to the sink; Status = 1 once the hour has been emitted and is
// kept for late events.
//
//viewgen:record
type openHourRow struct {
	Total   int64 `slot:"Value"`
	Events  int32 `slot:"State"`
	Written int64 `slot:"Aux"`
	Emitted bool  `slot:"Status"`
}

// memberRow is the hour an event was counted in (keyed by op). Slots:
// Value = the hour; State = 1 once a write to the sink included it.
//
//viewgen:record
type memberRow struct {
	Hour    int64 `slot:"Value"`
	Written bool  `slot:"State"`
}

// balanceRow is a booking's paid total (keyed by booking). Slots: Value =
// the total; Aux = the version of the total (the number, within its
// booking, of the latest payment it includes); State = the number of the
// payment whose delivery wrote the row; At = when it was written (0: now).
//
//viewgen:record
type balanceRow struct {
	Total   int64    `slot:"Value"`
	Version int64    `slot:"Aux"`
	Payment int32    `slot:"State"`
	At      sim.Time `slot:"At"`
}
