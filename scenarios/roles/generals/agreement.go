package generals

import (
	"encoding/binary"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// agreement holds when both generals attack or neither does.
type agreement struct {
	a, b int32
}

func (*agreement) Name() string { return "agreement" }

func (x *agreement) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect {
		return
	}
	switch sim.SinkID(e.Label) {
	case SinkAAttacks:
		x.a++
	case SinkBAttacks:
		x.b++
	}
}

func (x *agreement) Violation(finished bool) string { return x.ViolationDetail(finished).English }

// ViolationDetail implements sim.ViolationDetailer.
func (x *agreement) ViolationDetail(finished bool) sim.Violation {
	if !finished || (x.a > 0) == (x.b > 0) {
		return sim.Violation{}
	}
	general := "general-b"
	if x.a > 0 {
		general = "general-a"
	}
	return sim.NewViolation("violation.agreement", 0, general+" attacks alone", "General", general)
}

func (x *agreement) Clone() sim.Invariant { c := *x; return &c }

func (x *agreement) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(x.a))
	return binary.AppendUvarint(b, uint64(x.b))
}

func registerAgreement(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "agreement",
		Doc:  "the two generals both attack or neither does",
		New:  func(*sim.Topology) sim.Invariant { return &agreement{} },
	})
}
