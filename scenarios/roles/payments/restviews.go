package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// restRequest is one HTTP request to a rest-service (MsgRest). Slots:
// Status = the method (methodGet…methodPost); Value = the user the
// request is authenticated as (1-based); Key = the Idempotency-Key (0:
// none); Payload = the body (the value a PUT sets, the amount a POST
// pays). The answer is an httpResponse.
type restRequest struct {
	Method int32
	User   int64
	Key    idemKey
	Body   fingerprint
}

func (v restRequest) encode(e envelope) sim.Message {
	m := e.Message()
	m.Status, m.Value, m.Key, m.Payload = v.Method, v.User, int64(v.Key), int64(v.Body)
	return m
}

func decodeRestRequest(m sim.Message) restRequest {
	return restRequest{Method: m.Status, User: m.Value, Key: idemKey(m.Key), Body: fingerprint(m.Payload)}
}

// resourceRow is one resource of a rest-service (its resources table).
// Slots: State = 1 while it exists; Value = its value.
type resourceRow struct {
	Exists bool
	Value  int64
}

func (v resourceRow) encode() sim.Record {
	r := sim.Record{Value: v.Value}
	if v.Exists {
		r.State = 1
	}
	return r
}

func decodeResourceRow(r sim.Record) resourceRow {
	return resourceRow{Exists: r.State == 1, Value: r.Value}
}

// restKeyRow is a rest-service's stored answer to a POST under its key
// (its keys table). Slots: State = roles.KeyCompleted; Status = the stored
// status; Value = the stored result (a receipt); Aux = the payment's
// transaction id; Op = the operation that created it (the store's op).
type restKeyRow struct {
	Status  int32
	Receipt int64
	Txn     int64
}

func (v restKeyRow) encode() sim.Record {
	return sim.Record{State: roles.KeyCompleted, Status: v.Status, Value: v.Receipt, Aux: v.Txn}
}

func decodeRestKeyRow(r sim.Record) restKeyRow {
	return restKeyRow{Status: r.Status, Receipt: r.Value, Txn: r.Aux}
}

// restCounters is a rest-service's counters row. Slots: Value = the last
// transaction id issued; Aux = the payments made so far (the balance a
// receipt shows); State = 1 once the resources are seeded.
type restCounters struct {
	LastTxn  int64
	Payments int64
	Seeded   bool
}

func (v restCounters) encode() sim.Record {
	r := sim.Record{Value: v.LastTxn, Aux: v.Payments}
	if v.Seeded {
		r.State = 1
	}
	return r
}

func decodeRestCounters(r sim.Record) restCounters {
	return restCounters{LastTxn: r.Value, Payments: r.Aux, Seeded: r.State == 1}
}

// receiptBase separates a receipt's two fields: a receipt reads
// "payment TXN, balance N payments" as TXN*receiptBase + N.
const receiptBase = 1000

// receipt is the result a POST answers: the transaction id and the
// balance (payments made so far) when it was rendered.
func receipt(txn, payments int64) int64 { return txn*receiptBase + payments%receiptBase }

// receiptTxn is the transaction id a receipt names.
func receiptTxn(r int64) int64 { return r / receiptBase }

// restKeyScope is the key under which a rest-service stores a POST's
// answer: the Idempotency-Key alone (global scope), or the pair (user,
// key) (scoped per user). Ranges: roles.TupleKey's, with userDigits for
// the user.
func restKeyScope(user int64, key idemKey, perUser bool) int64 {
	if !perUser {
		return int64(key)
	}
	return roles.TupleKey(int64(key), user, userDigits)
}

// userDigits is how many decimal digits a user id takes in a scoped key.
const userDigits = 2
