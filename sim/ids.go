package sim

import "strconv"

// Time is virtual time in ticks. One tick is read as one millisecond in
// reports; nothing in a run ever reads the wall clock.
type Time int64

// String formats t as milliseconds or seconds, e.g. "250ms" or "61.5s".
func (t Time) String() string {
	if t < 1000 && t > -1000 {
		return strconv.FormatInt(int64(t), 10) + "ms"
	}
	s := strconv.FormatFloat(float64(t)/1000, 'f', -1, 64)
	return s + "s"
}

// NodeID names a node of a world: its index in the topology.
type NodeID uint8

// NoNode is the NodeID of "no peer" in trace events.
const NoNode NodeID = 255

// OpID is a logical operation identity, 1-based. It is the unit the checker
// counts effects by; 0 means "no operation".
type OpID int32

// String formats an operation as "op-3".
func (o OpID) String() string { return "op-" + strconv.Itoa(int(o)) }

// MsgKind is a scenario-defined message type (request, response, ack…).
type MsgKind uint16

// TimerKind is a role-defined timer type.
type TimerKind uint16

// TableID indexes a node's tables as declared in its NodeSpec.
type TableID uint8

// SinkID indexes the observed sinks of a topology.
type SinkID uint16

// PointID indexes the crash points of a topology.
type PointID uint16
