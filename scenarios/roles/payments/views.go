package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Typed views of the family's messages and rows. Role code reads and writes
// these named fields; each field's slot tag says which generic slot of
// sim.Message, sim.Record or sim.Timer holds it, and viewgen writes the
// codecs from the tags (views_gen.go: `go generate`, never by hand). Each
// view's doc comment lists its slots and their ranges; a slot not listed
// is zero. Every codec is a plain value conversion: no allocation, and
// decode(encode(v)) == v over the documented ranges (views_gen_test.go).

//go:generate go run ../viewgen

// idemKey is an Idempotency-Key (or a step's dedup key, or a provider's
// merchant reference); 0 means none.
type idemKey int64

// fingerprint is a request body's fingerprint: what tells one body from
// another under the same key.
type fingerprint int64

// clientKeyBase keeps client-chosen keys clear of operation numbers, so a
// key is never mistaken for an op in a trace.
const clientKeyBase = 1_000_000

// clientKey is the Idempotency-Key a client sends for operation op.
func clientKey(op sim.OpID) idemKey { return idemKey(clientKeyBase + int64(op)) }

// keyTimeScale is where a time-ordered key keeps its time: above every
// client key (clientKeyBase plus an operation number below it).
const keyTimeScale = 10 * clientKeyBase

// timedKey is the time-ordered Idempotency-Key of operation op made at
// time at (as a UUIDv7 carries its Unix milliseconds): the tick (a
// millisecond), plus one so that it is never 0, times keyTimeScale, plus
// clientKey(op).
func timedKey(op sim.OpID, at sim.Time) idemKey {
	return idemKey((int64(at)+1)*keyTimeScale) + clientKey(op)
}

// keyMadeAt is the time a time-ordered key was made, to the millisecond,
// and false for a key that carries no time.
func keyMadeAt(k idemKey) (sim.Time, bool) {
	ms := int64(k) / keyTimeScale
	if ms < 1 {
		return 0, false
	}
	return sim.Time(ms - 1), true
}

// perTryKey is the Idempotency-Key a client that makes a fresh key per try
// sends for attempt of op: a different key for every (op, attempt) pair.
// Ranges: roles.TupleKey's, with roles.AttemptDigits for attempt.
func perTryKey(op sim.OpID, attempt int32) idemKey {
	return idemKey(roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits))
}

// sendKey names one request send (op, attempt): the key of the services'
// at-most-once transport dedup tables (seen). Ranges: roles.TupleKey's,
// with roles.AttemptDigits for attempt.
func sendKey(op sim.OpID, attempt int32) int64 {
	return roles.TupleKey(int64(op), int64(attempt), roles.AttemptDigits)
}

// envelope is the family's name for roles.Envelope: kind, operation and
// attempt, what every message carries besides its view.
type envelope = roles.Envelope

// httpRequest is POST /payments (MsgPayRequest) or POST /orders (MsgOrder).
// Slots: Key = the Idempotency-Key (0: none); Payload = the body's
// fingerprint. Its onto turns a received request into another view of
// the same message as the engine delivered it.
//
//viewgen:message envelope decode=decodeHTTPRequest
type httpRequest struct {
	Key  idemKey     `slot:"Key"`
	Body fingerprint `slot:"Payload"`
}

// httpResponse is the answer to an httpRequest (MsgPayResponse,
// MsgOrderResponse). Slots: Status = the HTTP status; Value = the result (a
// transaction id, a contract id; 0 for none); Key = the key the server
// issued, carried by a 202 only (0 otherwise).
//
//viewgen:message envelope decode=decodeHTTPResponse
type httpResponse struct {
	Status    int32   `slot:"Status"`
	Result    int64   `slot:"Value"`
	IssuedKey idemKey `slot:"Key"`
}

// outcome records v as operation op's outcome: the result (transaction id,
// contract id; 0 for none) and the status, each in a slot of its own.
func (v httpResponse) outcome(ctx *sim.Context, op sim.OpID) {
	ctx.Outcome(op, v.Result, v.Status)
}

// stepDeadline is the order service's deadline for one call of a run's
// step (TimerStepTimeout). Slots: Key = the run; Phase = the step;
// Attempt = the call of that step (1-based).
//
//viewgen:timer kind=TimerStepTimeout
type stepDeadline struct {
	Run  int64 `slot:"Key"`
	Step int32 `slot:"Phase"`
	Call int32 `slot:"Attempt"`
}

// providerCall is a call to the card provider and its answer: MsgCharge,
// MsgChargeResult, MsgLookup, MsgLookupResult. The provider echoes the
// call's Key and Body in its answer. Slots: Key = the merchant reference
// the provider dedups and looks up by (0: none); Payload = the body's
// fingerprint (the amount); Status = the answer's status (0 in a call);
// Value = the transaction id (0 in a call, and in an answer without one).
//
//viewgen:message envelope
type providerCall struct {
	Key    idemKey     `slot:"Key"`
	Body   fingerprint `slot:"Payload"`
	Status int32       `slot:"Status"`
	TxnID  int64       `slot:"Value"`
}

// outcomeReport is the intent service and the reconciler talking about a
// key whose outcome is unknown: MsgUnknown (service → reconciler) and
// MsgResolved (reconciler → service). Slots: Key = the intent's key;
// Payload = its body's fingerprint (MsgUnknown); Status = the provider's
// lookup status and Value = the transaction id it found (MsgResolved).
//
//viewgen:message envelope
type outcomeReport struct {
	Key    idemKey     `slot:"Key"`
	Body   fingerprint `slot:"Payload"`
	Status int32       `slot:"Status"`
	TxnID  int64       `slot:"Value"`
}

// stepCall is the order service asking a step service for one step
// (MsgStep), and the step service's acknowledgement (MsgStepAck), which
// echoes the call. Slots: Key = the step's dedup key (0: none); Payload =
// the order run the step belongs to; Status = the step (stepContract…);
// Value = the record id the step produced (0 in a call).
//
//viewgen:message envelope
type stepCall struct {
	Key      idemKey `slot:"Key"`
	Run      int64   `slot:"Payload"`
	Step     int32   `slot:"Status"`
	RecordID int64   `slot:"Value"`
}

// keyRow is a row of an Idempotency-Key store (the payment, key-issuing,
// intent and order services' "keys" tables). State tells its two shapes
// apart:
//
//   - a pending key (PROCESSING, or the intent service's UNKNOWN): the
//     request being worked on, Op and Attempt; Response and Status are 0;
//   - a completed key (roles.KeyCompleted): the stored response, Status and
//     Response; Op and Attempt are 0.
//
// Slots: State = the state; Aux = the request body's fingerprint; Status =
// the stored status (completed) or the attempt being served (pending);
// Value = the stored response (completed) or the operation (pending); At =
// when the row was written (0: now). Its codec is hand-written: the state
// says which fields Status and Value hold.
type keyRow struct {
	State    int32
	Body     fingerprint
	Op       sim.OpID
	Attempt  int32
	Status   int32
	Response int64
	At       sim.Time
}

func (v keyRow) completed() bool { return v.State == roles.KeyCompleted }

func (v keyRow) encode() sim.Record {
	r := sim.Record{State: v.State, Aux: int64(v.Body), At: v.At}
	if v.completed() {
		r.Status, r.Value = v.Status, v.Response
	} else {
		r.Status, r.Value = v.Attempt, int64(v.Op)
	}
	return r
}

func decodeKeyRow(r sim.Record) keyRow {
	v := keyRow{State: r.State, Body: fingerprint(r.Aux), At: r.At}
	if v.completed() {
		v.Status, v.Response = r.Status, r.Value
	} else {
		v.Attempt, v.Op = r.Status, sim.OpID(r.Value)
	}
	return v
}

// opRow is a client's row for one operation (the ops table). Slots: State
// = roles.OpPending or roles.OpDone; Value = the latest attempt sent; Aux =
// the key the server issued (0: none yet).
//
//viewgen:record
type opRow struct {
	State     int32   `slot:"State"`
	Attempt   int32   `slot:"Value"`
	IssuedKey idemKey `slot:"Aux"`
}

// chargeRow is the provider's record of one charge under a merchant
// reference. Slots: Value = the transaction id; Aux = the charged body's
// fingerprint.
//
//viewgen:record
type chargeRow struct {
	TxnID int64       `slot:"Value"`
	Body  fingerprint `slot:"Aux"`
}

// counterRow is a counter's only row (row 0): the last number issued.
// Slots: Value = that number.
//
//viewgen:record
type counterRow struct {
	Last int64 `slot:"Value"`
}

// refRow is the intent service's record of a provider reference it issued.
// Slots: Value = the key of the intent the reference was issued for.
//
//viewgen:record
type refRow struct {
	Intent idemKey `slot:"Value"`
}

// callsRow is the intent service's count of provider calls for one key.
// Slots: Status = the provider calls so far; Aux = the client attempt that
// waits for the answer.
//
//viewgen:record
type callsRow struct {
	Calls         int32 `slot:"Status"`
	ClientAttempt int32 `slot:"Aux"`
}

// backlogRow is the reconciler's entry for one unknown outcome. Slots:
// State = 1 (QUEUED); Value = the operation; Aux = the intent's body
// fingerprint; At = its place in the line (0: the end, now).
//
//viewgen:record State=backlogQueued
type backlogRow struct {
	Op   sim.OpID    `slot:"Value"`
	Body fingerprint `slot:"Aux"`
	At   sim.Time    `slot:"At"`
}

const backlogQueued = 1

// runRow is the order service's progress through one order run (the runs
// table). Slots: State = the step being called; Status = calls of that step
// so far; Value = the client attempt the run answers; Aux = the contract id
// step 1 produced (0 until then).
//
//viewgen:record
type runRow struct {
	Step     int32 `slot:"State"`
	Calls    int32 `slot:"Status"`
	Attempt  int32 `slot:"Value"`
	Contract int64 `slot:"Aux"`
}

// stepDoneRow is a step service's record of a step done under a dedup key.
// Slots: State = 1 (DONE); Value = the record id the step produced.
//
//viewgen:record State=stepRowDone
type stepDoneRow struct {
	RecordID int64 `slot:"Value"`
}

const stepRowDone = 1

// pendingCallRow is the rate-limited provider's record of a request waiting
// for its billing core. Slots: Value = the caller to answer.
//
//viewgen:record
type pendingCallRow struct {
	Caller sim.NodeID `slot:"Value"`
}

// windowRow is the rate-limited provider's open window (row 0). Slots:
// Status = requests admitted in it; At = when it ends.
//
//viewgen:record
type windowRow struct {
	Admitted int32    `slot:"Status"`
	Ends     sim.Time `slot:"At"`
}

// ProviderCall is the card provider's protocol (MsgCharge, MsgLookup and
// their results) for roles of other families that call the card gateway.
// It is providerCall with exported names: the same slots (Key = the
// merchant reference; Payload = the body's fingerprint; Status = the
// answer's status; Value = the transaction id).
//
//viewgen:message envelope
type ProviderCall struct {
	Reference int64 `slot:"Key"`
	Body      int64 `slot:"Payload"`
	Status    int32 `slot:"Status"`
	TxnID     int64 `slot:"Value"`
}
