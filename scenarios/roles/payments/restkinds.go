package payments

import "github.com/oncesim/once/sim"

// Message kinds and sinks of the REST resource endpoints (rest-client,
// rest-service): GET, PUT, DELETE and POST on one resource collection, the
// method in the request's view. They live in a file of their own so that
// the lessons on HTTP method semantics, the missing key, key scope and
// stored responses do not touch the /payments protocol above.
var (
	MsgRest         sim.MsgKind // client → service: one HTTP request (method, user, key, body)
	MsgRestResponse sim.MsgKind // service → client: status and result

	// SinkApplied counts what an operation did, once where it happened: a
	// PUT or DELETE (or a GET that should not) changed its resource, a POST
	// created a payment (and charged card-charges), the client showed a
	// GET's answer to its user (once per operation, however many retries).
	SinkApplied sim.SinkID
)

// HTTP methods a restRequest carries.
const (
	methodGet int32 = iota + 1
	methodPut
	methodDelete
	methodPost
	methodPatch
)

// MethodPost is RestClient.Method for POST /payments.
const MethodPost = methodPost

// methodNames are the methods' names, indexed by method.
var methodNames = [...]string{"", "GET", "PUT", "DELETE", "POST", "PATCH"}
