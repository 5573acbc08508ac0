package payments

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
// fingerprint.
type httpRequest struct {
	Key  idemKey
	Body fingerprint
}

func (v httpRequest) encode(e envelope) sim.Message { return v.onto(e.Message()) }

// onto returns m, a received request, with its slots replaced by v's: the
// same message as the engine delivered it, under another view.
func (v httpRequest) onto(m sim.Message) sim.Message {
	m.Key, m.Payload = int64(v.Key), int64(v.Body)
	return m
}

func decodeHTTPRequest(m sim.Message) httpRequest {
	return httpRequest{Key: idemKey(m.Key), Body: fingerprint(m.Payload)}
}

// httpResponse is the answer to an httpRequest (MsgPayResponse,
// MsgOrderResponse). Slots: Status = the HTTP status; Value = the result (a
// transaction id, a contract id; 0 for none); Key = the key the server
// issued, carried by a 202 only (0 otherwise).
type httpResponse struct {
	Status    int32
	Result    int64
	IssuedKey idemKey
}

func (v httpResponse) encode(e envelope) sim.Message {
	m := e.Message()
	m.Status, m.Value, m.Key = v.Status, v.Result, int64(v.IssuedKey)
	return m
}

func decodeHTTPResponse(m sim.Message) httpResponse {
	return httpResponse{Status: m.Status, Result: m.Value, IssuedKey: idemKey(m.Key)}
}

// outcome records v as operation op's outcome: the result (transaction id,
// contract id; 0 for none) and the status, each in a slot of its own.
func (v httpResponse) outcome(ctx *sim.Context, op sim.OpID) {
	ctx.Outcome(op, v.Result, v.Status)
}

// stepDeadline is the order service's deadline for one call of a run's
// step (TimerStepTimeout). Slots: Key = the run; Phase = the step;
// Attempt = the call of that step (1-based).
type stepDeadline struct {
	Run  int64
	Step int32
	Call int32
}

func (v stepDeadline) timer(op sim.OpID) sim.Timer {
	return sim.Timer{Kind: TimerStepTimeout, Op: op, Key: v.Run, Phase: v.Step, Attempt: v.Call}
}

func decodeStepDeadline(t sim.Timer) stepDeadline {
	return stepDeadline{Run: t.Key, Step: t.Phase, Call: t.Attempt}
}

// providerCall is a call to the card provider and its answer: MsgCharge,
// MsgChargeResult, MsgLookup, MsgLookupResult. The provider echoes the
// call's Key and Body in its answer. Slots: Key = the merchant reference
// the provider dedups and looks up by (0: none); Payload = the body's
// fingerprint (the amount); Status = the answer's status (0 in a call);
// Value = the transaction id (0 in a call, and in an answer without one).
type providerCall struct {
	Key    idemKey
	Body   fingerprint
	Status int32
	TxnID  int64
}

func (v providerCall) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload, m.Status, m.Value = int64(v.Key), int64(v.Body), v.Status, v.TxnID
	return m
}

func decodeProviderCall(m sim.Message) providerCall {
	return providerCall{Key: idemKey(m.Key), Body: fingerprint(m.Payload), Status: m.Status, TxnID: m.Value}
}

// outcomeReport is the intent service and the reconciler talking about a
// key whose outcome is unknown: MsgUnknown (service → reconciler) and
// MsgResolved (reconciler → service). Slots: Key = the intent's key;
// Payload = its body's fingerprint (MsgUnknown); Status = the provider's
// lookup status and Value = the transaction id it found (MsgResolved).
type outcomeReport struct {
	Key    idemKey
	Body   fingerprint
	Status int32
	TxnID  int64
}

func (v outcomeReport) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload, m.Status, m.Value = int64(v.Key), int64(v.Body), v.Status, v.TxnID
	return m
}

func decodeOutcomeReport(m sim.Message) outcomeReport {
	return outcomeReport{Key: idemKey(m.Key), Body: fingerprint(m.Payload), Status: m.Status, TxnID: m.Value}
}

// stepCall is the order service asking a step service for one step
// (MsgStep), and the step service's acknowledgement (MsgStepAck), which
// echoes the call. Slots: Key = the step's dedup key (0: none); Payload =
// the order run the step belongs to; Status = the step (stepContract…);
// Value = the record id the step produced (0 in a call).
type stepCall struct {
	Key      idemKey
	Run      int64
	Step     int32
	RecordID int64
}

func (v stepCall) encode(e envelope) sim.Message {
	m := e.Message()
	m.Key, m.Payload, m.Status, m.Value = int64(v.Key), v.Run, v.Step, v.RecordID
	return m
}

func decodeStepCall(m sim.Message) stepCall {
	return stepCall{Key: idemKey(m.Key), Run: m.Payload, Step: m.Status, RecordID: m.Value}
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
// when the row was written (0: now).
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
type opRow struct {
	State     int32
	Attempt   int32
	IssuedKey idemKey
}

func (v opRow) encode() sim.Record {
	return sim.Record{State: v.State, Value: int64(v.Attempt), Aux: int64(v.IssuedKey)}
}

func decodeOpRow(r sim.Record) opRow {
	return opRow{State: r.State, Attempt: int32(r.Value), IssuedKey: idemKey(r.Aux)}
}

// chargeRow is the provider's record of one charge under a merchant
// reference. Slots: Value = the transaction id; Aux = the charged body's
// fingerprint.
type chargeRow struct {
	TxnID int64
	Body  fingerprint
}

func (v chargeRow) encode() sim.Record {
	return sim.Record{Value: v.TxnID, Aux: int64(v.Body)}
}

func decodeChargeRow(r sim.Record) chargeRow {
	return chargeRow{TxnID: r.Value, Body: fingerprint(r.Aux)}
}

// counterRow is a counter's only row (row 0): the last number issued.
// Slots: Value = that number.
type counterRow struct {
	Last int64
}

func (v counterRow) encode() sim.Record { return sim.Record{Value: v.Last} }

func decodeCounterRow(r sim.Record) counterRow { return counterRow{Last: r.Value} }

// refRow is the intent service's record of a provider reference it issued.
// Slots: Value = the key of the intent the reference was issued for.
type refRow struct {
	Intent idemKey
}

func (v refRow) encode() sim.Record { return sim.Record{Value: int64(v.Intent)} }

func decodeRefRow(r sim.Record) refRow { return refRow{Intent: idemKey(r.Value)} }

// callsRow is the intent service's count of provider calls for one key.
// Slots: Status = the provider calls so far; Aux = the client attempt that
// waits for the answer.
type callsRow struct {
	Calls         int32
	ClientAttempt int32
}

func (v callsRow) encode() sim.Record {
	return sim.Record{Status: v.Calls, Aux: int64(v.ClientAttempt)}
}

func decodeCallsRow(r sim.Record) callsRow {
	return callsRow{Calls: r.Status, ClientAttempt: int32(r.Aux)}
}

// backlogRow is the reconciler's entry for one unknown outcome. Slots:
// State = 1 (QUEUED); Value = the operation; Aux = the intent's body
// fingerprint; At = its place in the line (0: the end, now).
type backlogRow struct {
	Op   sim.OpID
	Body fingerprint
	At   sim.Time
}

const backlogQueued = 1

func (v backlogRow) encode() sim.Record {
	return sim.Record{State: backlogQueued, Value: int64(v.Op), Aux: int64(v.Body), At: v.At}
}

func decodeBacklogRow(r sim.Record) backlogRow {
	return backlogRow{Op: sim.OpID(r.Value), Body: fingerprint(r.Aux), At: r.At}
}

// runRow is the order service's progress through one order run (the runs
// table). Slots: State = the step being called; Status = calls of that step
// so far; Value = the client attempt the run answers; Aux = the contract id
// step 1 produced (0 until then).
type runRow struct {
	Step     int32
	Calls    int32
	Attempt  int32
	Contract int64
}

func (v runRow) encode() sim.Record {
	return sim.Record{State: v.Step, Status: v.Calls, Value: int64(v.Attempt), Aux: v.Contract}
}

func decodeRunRow(r sim.Record) runRow {
	return runRow{Step: r.State, Calls: r.Status, Attempt: int32(r.Value), Contract: r.Aux}
}

// stepDoneRow is a step service's record of a step done under a dedup key.
// Slots: State = 1 (DONE); Value = the record id the step produced.
type stepDoneRow struct {
	RecordID int64
}

const stepRowDone = 1

func (v stepDoneRow) encode() sim.Record { return sim.Record{State: stepRowDone, Value: v.RecordID} }

func decodeStepDoneRow(r sim.Record) stepDoneRow { return stepDoneRow{RecordID: r.Value} }

// pendingCallRow is the rate-limited provider's record of a request waiting
// for its billing core. Slots: Value = the caller to answer.
type pendingCallRow struct {
	Caller sim.NodeID
}

func (v pendingCallRow) encode() sim.Record { return sim.Record{Value: int64(v.Caller)} }

func decodePendingCallRow(r sim.Record) pendingCallRow {
	return pendingCallRow{Caller: sim.NodeID(r.Value)}
}

// windowRow is the rate-limited provider's open window (row 0). Slots:
// Status = requests admitted in it; At = when it ends.
type windowRow struct {
	Admitted int32
	Ends     sim.Time
}

func (v windowRow) encode() sim.Record { return sim.Record{Status: v.Admitted, At: v.Ends} }

func decodeWindowRow(r sim.Record) windowRow { return windowRow{Admitted: r.Status, Ends: r.At} }

// ProviderCall is the card provider's protocol (MsgCharge, MsgLookup and
// their results) for roles of other families that call the card gateway.
// It is providerCall with exported names: the same slots (Key = the
// merchant reference; Payload = the body's fingerprint; Status = the
// answer's status; Value = the transaction id).
type ProviderCall struct {
	Reference int64
	Body      int64
	Status    int32
	TxnID     int64
}

// Encode returns the message of kind for operation op's attempt.
func (v ProviderCall) Encode(kind sim.MsgKind, op sim.OpID, attempt int32) sim.Message {
	return providerCall{Key: idemKey(v.Reference), Body: fingerprint(v.Body), Status: v.Status, TxnID: v.TxnID}.encode(envelope{Kind: kind, Op: op, Attempt: attempt})
}

// DecodeProviderCall reads a provider call or answer.
func DecodeProviderCall(m sim.Message) ProviderCall {
	c := decodeProviderCall(m)
	return ProviderCall{Reference: int64(c.Key), Body: int64(c.Body), Status: c.Status, TxnID: c.TxnID}
}
