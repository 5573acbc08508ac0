package roles

import (
	"slices"

	"github.com/oncesim/once/sim"
)

// KindNames numbers what a topology names: message kinds, timer kinds,
// observed sinks and crash points. Number 0 of messages, timers and crash
// points means "none". A catalog holds one (Catalog.Kinds), and every
// topology loaded from the catalog carries its names, so a trace reads the
// same way whichever scenario wrote it.
//
// How role code names a kind. Role code compares and sends kinds through
// package variables (payments.MsgPayRequest): a family declares them
// unset, and its numberKinds function — called by the family's Register,
// through Catalog.NumberKinds — registers their names in a fixed order
// and sets them. The numbers are therefore those of the catalog the
// families were last registered in (in one program: scenarios.RoleCatalog,
// built once, families in the fixed order of scenarios.RegisterFamilies),
// never of Go's package initialisation or file order; and they mean
// nothing outside that catalog: digests, fingerprints, random decisions
// and reports see names only (sim/names.go). A catalog whose numbering the
// variables no longer hold (the families were registered since in another
// catalog, in another order) is refused by Catalog.CheckNumbering, which
// the loader's Config calls, rather than run with the wrong kinds.
//
// A KindNames is a value: Clone copies one, and kinds added to the copy are
// the copy's alone — a test or a tool extends a catalog's names without
// changing a package variable, and makes its topologies from the copy.
type KindNames struct {
	messages, timers, sinks, points []string
}

// NewKindNames returns empty names (each number 0 unnamed).
func NewKindNames() *KindNames {
	return &KindNames{messages: []string{""}, timers: []string{""}, points: []string{""}}
}

// Clone returns a copy of n that shares nothing with it.
func (n *KindNames) Clone() *KindNames {
	return &KindNames{messages: slices.Clone(n.messages), timers: slices.Clone(n.timers), sinks: slices.Clone(n.sinks), points: slices.Clone(n.points)}
}

// Message registers a message kind in n (or returns the number it has).
func (n *KindNames) Message(name string) sim.MsgKind {
	return registerName[sim.MsgKind](&n.messages, name)
}

// Timer registers a timer kind in n.
func (n *KindNames) Timer(name string) sim.TimerKind {
	return registerName[sim.TimerKind](&n.timers, name)
}

// Sink registers an observed sink in n.
func (n *KindNames) Sink(name string) sim.SinkID { return registerName[sim.SinkID](&n.sinks, name) }

// Point registers a crash point in n.
func (n *KindNames) Point(name string) sim.PointID { return registerName[sim.PointID](&n.points, name) }

// MessageNames returns n's message kinds by number (0 is unnamed).
func (n *KindNames) MessageNames() []string { return n.messages }

// SinkNames returns n's sinks by number.
func (n *KindNames) SinkNames() []string { return n.sinks }

// Topology returns a topology of nodes with n's names filled in.
func (n *KindNames) Topology(nodes ...sim.NodeSpec) *sim.Topology {
	return &sim.Topology{Nodes: nodes, Messages: n.messages, Timers: n.timers, Sinks: n.sinks, Points: n.points}
}

// extends reports whether n holds every name of m under m's number.
func (n *KindNames) extends(m *KindNames) bool {
	return isPrefix(m.messages, n.messages) && isPrefix(m.timers, n.timers) && isPrefix(m.sinks, n.sinks) && isPrefix(m.points, n.points)
}

func isPrefix(a, b []string) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

// registerName returns name's number in names, adding it if it is new;
// numbers are as wide as T (message kinds are 16 bits: room to grow).
func registerName[T ~uint8 | ~uint16](names *[]string, name string) T {
	for i, n := range *names {
		if n == name {
			return T(i)
		}
	}
	if len(*names) >= int(^T(0)) {
		panic("roles: too many names registered for " + name)
	}
	*names = append(*names, name)
	return T(len(*names) - 1)
}

// Timers several families use; NewCatalog numbers them first.
var (
	TimerStartOp   sim.TimerKind // the workload starts an operation
	TimerRetry     sim.TimerKind // a sender gives up waiting and retries
	TimerRedeliver sim.TimerKind // a broker's visibility timeout
)

// numberKinds numbers the shared timers in n.
func numberKinds(n *KindNames) {
	TimerStartOp = n.Timer("start-op")
	TimerRetry = n.Timer("retry")
	TimerRedeliver = n.Timer("redeliver")
}

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
