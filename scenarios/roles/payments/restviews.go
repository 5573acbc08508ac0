package payments

import "github.com/oncesim/once/scenarios/roles"

// restRequest is one HTTP request to a rest-service (MsgRest). Slots:
// Status = the method (methodGet…methodPost); Value = the user the
// request is authenticated as (1-based); Key = the Idempotency-Key (0:
// none); Payload = the body (the value a PUT sets, the amount a POST
// pays). The answer is an httpResponse.
//
//viewgen:message envelope
type restRequest struct {
	Method int32       `slot:"Status"`
	User   int64       `slot:"Value"`
	Key    idemKey     `slot:"Key"`
	Body   fingerprint `slot:"Payload"`
}

// resourceRow is one resource of a rest-service (its resources table).
// Slots: State = 1 while it exists; Value = its value.
//
//viewgen:record
type resourceRow struct {
	Exists bool  `slot:"State"`
	Value  int64 `slot:"Value"`
}

// restKeyRow is a rest-service's stored answer to a POST under its key
// (its keys table). Slots: State = roles.KeyCompleted; Status = the stored
// status; Value = the stored result (a receipt); Aux = the payment's
// transaction id; Op = the operation that created it (the store's op).
//
//viewgen:record State=roles.KeyCompleted
type restKeyRow struct {
	Status  int32 `slot:"Status"`
	Receipt int64 `slot:"Value"`
	Txn     int64 `slot:"Aux"`
}

// restCounters is a rest-service's counters row. Slots: Value = the last
// transaction id issued; Aux = the payments made so far (the balance a
// receipt shows); State = 1 once the resources are seeded.
//
//viewgen:record
type restCounters struct {
	LastTxn  int64 `slot:"Value"`
	Payments int64 `slot:"Aux"`
	Seeded   bool  `slot:"State"`
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
