package roles

import "github.com/oncesim/once/sim"

// Names are registered once, at package initialisation, by the families
// (each in its kinds.go); every topology shares the same numbering, so a
// trace reads the same way whichever scenario wrote it.
//
// Trace digests depend on the numbers, so every name the catalog used when
// the families moved into their own packages is listed here, in its old
// order: the order in which Go initialises the family packages can never
// move them. A name a family registers that is not listed is numbered
// after them, in initialisation order, fixed at build time. (Once digests
// no longer depend on the numbering, these lists can shrink to the empty
// names.)
var (
	messageNames = []string{"",
		"pay", "pay-response", "charge", "charge-result", "lookup", "lookup-result",
		"publish", "publish-ack", "deliver", "commit", "plan", "ack",
		"deploy", "register", "trigger-checkpoint", "barrier", "stream-record", "partition-request",
		"checkpoint-ack", "checkpoint-complete", "committed", "db-prepare", "db-prepared", "db-commit",
		"db-abort-lingering", "fetch", "record", "produce", "produce-ack", "init-producer-id",
		"producer-id", "add-partitions", "add-partitions-ok", "txn-offset-commit", "offset-commit",
		"offset-commit-ack", "offset-fetch", "offsets", "end-txn", "end-txn-result", "write-markers",
		"markers-written", "db-write", "db-write-ack", "outbox-notify", "outbox-fetch", "outbox-row",
		"read", "input-record", "order", "order-response", "step", "step-ack", "unknown-outcome", "resolved"}
	timerNames = []string{"",
		"start-op", "retry", "redeliver", "dawn", "checkpoint-interval", "emit", "register-retry",
		"kafka-timeout", "call-timeout", "reconcile", "backoff", "step-timeout", "core-timeout"}
	sinkNames = []string{
		"card-charges", "billing", "general-a-attacks", "general-b-attacks", "kafka-output", "db-rows",
		"log-records", "orders", "balances", "order-lines", "hourly-totals", "contracts", "emails", "stock"}
	pointNames = []string{"",
		"after-lock", "after-charge", "after-store", "after-commit", "after-effect", "before-mark",
		"after-sink-write", "after-pre-commit", "after-produce", "after-external-write", "before-commit",
		"after-send", "after-offset-commit", "after-publish", "after-db-commit", "after-emit", "between-steps"}
)

func registerName[T ~uint8](names *[]string, name string) T {
	for i, n := range *names {
		if n == name {
			return T(i)
		}
	}
	if len(*names) >= 255 {
		panic("roles: too many names registered for " + name)
	}
	*names = append(*names, name)
	return T(len(*names) - 1)
}

// Message registers a message kind (or returns the number it already has).
func Message(name string) sim.MsgKind { return registerName[sim.MsgKind](&messageNames, name) }

// Timer registers a timer kind.
func Timer(name string) sim.TimerKind { return registerName[sim.TimerKind](&timerNames, name) }

// Sink registers an observed sink.
func Sink(name string) sim.SinkID { return registerName[sim.SinkID](&sinkNames, name) }

// Point registers a crash point.
func Point(name string) sim.PointID { return registerName[sim.PointID](&pointNames, name) }

// MessageNames returns the message kinds by number (0 is unnamed).
func MessageNames() []string { return messageNames }

// SinkNames returns the sinks by number.
func SinkNames() []string { return sinkNames }

// Topology returns a topology of nodes with the shared names filled in.
func Topology(nodes ...sim.NodeSpec) *sim.Topology {
	return &sim.Topology{
		Nodes:    nodes,
		Messages: messageNames,
		Timers:   timerNames,
		Sinks:    sinkNames,
		Points:   pointNames,
	}
}

// Timers several families use.
var (
	TimerStartOp   = Timer("start-op")  // the workload starts an operation
	TimerRetry     = Timer("retry")     // a sender gives up waiting and retries
	TimerRedeliver = Timer("redeliver") // a broker's visibility timeout
)

// Status codes (HTTP's, after the IETF Idempotency-Key draft) the families
// answer with; the log protocols reuse them.
const (
	StatusOK             = 200
	StatusCreated        = 201
	StatusAccepted       = 202 // accepted; the result is to be asked for later (carries a server-issued key)
	StatusBadRequest     = 400 // the Idempotency-Key header is missing
	StatusForbidden      = 403 // the rate limit, as some providers answer it
	StatusNotFound       = 404
	StatusConflict       = 409 // the key is still being processed
	StatusUnprocessable  = 422 // the key was reused with a different payload
	StatusServerError    = 500
	StatusNotImplemented = 501
	StatusGatewayTimeout = 504 // the provider's edge timed out on its core: the charge may or may not have happened
)
