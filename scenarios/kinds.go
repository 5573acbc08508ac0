package scenarios

import (
	"slices"

	"github.com/oncesim/once/sim"
)

// Names are registered once, at package initialisation, by the files that
// define roles; every topology shares the same numbering, so a trace reads
// the same way whichever scenario wrote it. The numbers follow Go file and
// init order and mean nothing outside this build: digests, fingerprints,
// random decisions and reports see names only (sim/names.go). Number 0 of
// messages, timers and crash points means "none".
var (
	messageNames = []string{""}
	timerNames   = []string{""}
	sinkNames    []string
	pointNames   = []string{""}
)

func registerName[T ~uint8](names *[]string, name string) T {
	for i, n := range *names {
		if n == name {
			return T(i)
		}
	}
	if len(*names) >= 255 {
		panic("scenarios: too many names registered for " + name)
	}
	*names = append(*names, name)
	return T(len(*names) - 1)
}

// sortedNames returns a sorted copy of names, for messages that list them:
// registration order is a build detail.
func sortedNames(names []string) []string {
	return slices.Sorted(slices.Values(names))
}

// newMessage registers a message kind.
func newMessage(name string) sim.MsgKind { return registerName[sim.MsgKind](&messageNames, name) }

// newTimer registers a timer kind.
func newTimer(name string) sim.TimerKind { return registerName[sim.TimerKind](&timerNames, name) }

// newSink registers an observed sink.
func newSink(name string) sim.SinkID { return registerName[sim.SinkID](&sinkNames, name) }

// newPoint registers a crash point.
func newPoint(name string) sim.PointID { return registerName[sim.PointID](&pointNames, name) }

// Message kinds, timers, sinks and crash points of the HTTP and queue
// families.
var (
	MsgPayRequest   = newMessage("pay")           // client → service: POST /payments [Idempotency-Key]
	MsgPayResponse  = newMessage("pay-response")  // service → client: status and transaction id
	MsgCharge       = newMessage("charge")        // service → gateway: charge the card
	MsgChargeResult = newMessage("charge-result") // gateway → service: transaction id
	MsgLookup       = newMessage("lookup")        // service → gateway: what happened to this key?
	MsgLookupResult = newMessage("lookup-result") // gateway → service: charged (txn) or not found
	MsgPublish      = newMessage("publish")       // producer → broker
	MsgPublishAck   = newMessage("publish-ack")   // broker → producer
	MsgDeliver      = newMessage("deliver")       // broker → consumer: record at an offset
	MsgCommit       = newMessage("commit")        // consumer → broker: offset processed (the ack)

	TimerStartOp   = newTimer("start-op")  // the workload starts an operation
	TimerRetry     = newTimer("retry")     // a sender gives up waiting and retries
	TimerRedeliver = newTimer("redeliver") // the broker's visibility timeout

	SinkCardCharges = newSink("card-charges") // the gateway's ledger of card charges
	SinkBilling     = newSink("billing")      // the billing rows a consumer writes

	PointAfterLock   = newPoint("after-lock")   // key persisted as PROCESSING, gateway not yet called
	PointAfterCharge = newPoint("after-charge") // gateway charged, response not yet stored
	PointAfterStore  = newPoint("after-store")  // response stored, not yet sent
	PointAfterCommit = newPoint("after-commit") // offset committed, record not yet processed (at-most-once)
	PointAfterEffect = newPoint("after-effect") // record processed, offset not yet committed
	PointBeforeMark  = newPoint("before-mark")  // effect applied, dedup key not yet written ("check, call, mark")
)

// HTTP status codes the roles use (IETF Idempotency-Key draft).
const (
	StatusOK             = 200
	StatusCreated        = 201
	StatusBadRequest     = 400 // the Idempotency-Key header is missing
	StatusForbidden      = 403 // the rate limit, as some providers answer it
	StatusNotFound       = 404
	StatusConflict       = 409 // the key is still being processed
	StatusUnprocessable  = 422 // the key was reused with a different payload
	StatusServerError    = 500
	StatusNotImplemented = 501
)

// newTopology returns a topology with the shared names filled in.
func newTopology(nodes ...sim.NodeSpec) *sim.Topology {
	return &sim.Topology{
		Nodes:    nodes,
		Messages: messageNames,
		Timers:   timerNames,
		Sinks:    sinkNames,
		Points:   pointNames,
	}
}
