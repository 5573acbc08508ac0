package scenarios

import "github.com/oncesim/once/sim"

// Message kinds shared by every scenario, so a trace reads the same way
// whichever scenario wrote it.
const (
	_               sim.MsgKind = iota
	MsgPayRequest               // client → service: POST /payments [Idempotency-Key]
	MsgPayResponse              // service → client: status and transaction id
	MsgCharge                   // service → gateway: charge the card
	MsgChargeResult             // gateway → service: transaction id
	MsgLookup                   // service → gateway: what happened to this key?
	MsgLookupResult             // gateway → service: charged (txn) or not found
	MsgPublish                  // producer → broker
	MsgPublishAck               // broker → producer
	MsgDeliver                  // broker → consumer: record at an offset
	MsgCommit                   // consumer → broker: offset processed (the ack)
	numMessageKinds
)

var messageNames = []string{
	"", "pay", "pay-response", "charge", "charge-result", "lookup", "lookup-result",
	"publish", "publish-ack", "deliver", "commit",
}

// Timer kinds.
const (
	_              sim.TimerKind = iota
	TimerStartOp                 // the workload starts an operation
	TimerRetry                   // a sender gives up waiting and retries
	TimerRedeliver               // the broker's visibility timeout: redeliver if unacknowledged
)

var timerNames = []string{"", "start-op", "retry", "redeliver"}

// Sinks where effects are observed.
const (
	SinkCardCharges sim.SinkID = iota // the gateway's ledger of card charges
	SinkBilling                       // the billing rows a consumer writes
)

var sinkNames = []string{"card-charges", "billing"}

// Crash points: where a crashable role may stop dead.
const (
	_                sim.PointID = iota
	PointAfterLock               // key persisted as PROCESSING, gateway not yet called
	PointAfterCharge             // gateway charged, response not yet stored
	PointAfterStore              // response stored, not yet sent
	PointAfterCommit             // offset committed, record not yet processed (at-most-once)
	PointAfterEffect             // record processed, offset not yet committed
	PointBeforeMark              // effect applied, dedup key not yet written ("check, call, mark")
)

var pointNames = []string{"", "after-lock", "after-charge", "after-store", "after-commit", "after-effect", "before-mark"}

// HTTP status codes the roles use (IETF Idempotency-Key draft).
const (
	StatusOK             = 200
	StatusCreated        = 201
	StatusBadRequest     = 400 // the Idempotency-Key header is missing
	StatusNotFound       = 404
	StatusConflict       = 409 // the key is still being processed
	StatusUnprocessable  = 422 // the key was reused with a different payload
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
