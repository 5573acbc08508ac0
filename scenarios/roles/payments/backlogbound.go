package payments

import (
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// BacklogBound is the most outcomes in state UNKNOWN at once that the
// invariant "unknown-backlog-bounded" allows. While the reconciler
// resolves faster than unknown outcomes arrive (r > u) the backlog is a
// queue with a negative drift and stays a few intents deep whatever the
// length of the run; when r < u it grows by about (u - r) per second of
// arrivals, and a run of a few hundred payments passes any fixed bound.
const BacklogBound = 12

// backlogBounded is the invariant "unknown-backlog-bounded": the
// max-unknown-backlog metric, checked against BacklogBound, so that the
// course's "reconciliation is stable only if r > u" is a claim a run can
// break, not only a number.
type backlogBounded struct {
	unknownBacklog
	roles.Verdict
}

// Name implements sim.Invariant.
func (x *backlogBounded) Name() string { return "unknown-backlog-bounded" }

// Record implements sim.Recorder.
func (x *backlogBounded) Record(e *sim.Event) {
	x.unknownBacklog.Record(e)
	if x.Why.Held() && x.max > BacklogBound {
		at := e.At.String()
		x.Why = sim.NewViolation("violation.unknown-backlog-bounded", x.max,
			strconv.Itoa(x.max)+" outcomes UNKNOWN at once at "+at+", more than "+strconv.Itoa(BacklogBound)+
				": the reconciler resolves fewer per second than time out (r < u), and the backlog grows with the run",
			"At", at, "Bound", strconv.Itoa(BacklogBound))
	}
}

// Clone implements sim.Invariant.
func (x *backlogBounded) Clone() sim.Invariant {
	c := *x
	c.rows = slices.Clone(x.rows)
	return &c
}

// AppendState implements sim.Invariant.
func (x *backlogBounded) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(x.rows)))
	for _, r := range x.rows {
		b = r.appendTo(b)
	}
	b = binary.AppendUvarint(b, uint64(x.max))
	return append(b, h2Bool(!x.Why.Held()))
}

func registerBacklogbound(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "unknown-backlog-bounded",
		Doc:  "never more than " + strconv.Itoa(BacklogBound) + " outcomes UNKNOWN at once: reconciliation keeps up only while its rate r exceeds the rate u unknown outcomes arrive at",
		New: func(topo *sim.Topology) sim.Invariant {
			return &backlogBounded{unknownBacklog: newUnknownBacklog(topo)}
		},
	})
}
