package roles

import (
	"slices"

	"github.com/oncesim/once/sim"
)

// Names are registered once, at package initialisation, by the families
// (each in its kinds.go); every topology shares the same numbering, so a
// trace reads the same way whichever scenario wrote it. The numbers follow
// Go initialisation order and mean nothing outside this build: digests,
// fingerprints, random decisions and reports see names only (sim/names.go).
// Number 0 of messages, timers and crash points means "none".
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
	StatusUnavailable    = 503 // the service cannot decide now (its key store is down): try again later
	StatusGatewayTimeout = 504 // the provider's edge timed out on its core: the charge may or may not have happened
)

// SortedNames returns a sorted copy of names, for messages that list them:
// registration order is a build detail.
func SortedNames(names []string) []string {
	return slices.Sorted(slices.Values(names))
}
