package kafka

import (
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

func registerOutputonce(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "kafka-output-once",
		Doc:  "a downstream reader sees the output record of each operation at most once (Kafka's exactly-once, inside Kafka)",
		New:  func(*sim.Topology) sim.Invariant { return &outputOnce{onceSeen: onceSeen{sink: SinkOutput}} },
	})
}

// outputOnce folds the operations whose output a reader saw (kafka-output
// effects) and remembers the first one seen twice. It checks the claim of
// Kafka exactly-once where Kafka makes it — the output topic, as a
// read_committed reader sees it — whatever sink a scenario observes.
type outputOnce struct {
	onceSeen
	at    [2]int64 // the two offsets of the first operation seen twice
	first []int64  // parallel to seen: the offset it was first seen at
}

func (v *outputOnce) Name() string { return "kafka-output-once" }

func (v *outputOnce) Record(e *sim.Event) {
	i, first, twice := v.see(e)
	if first {
		v.first = slices.Insert(v.first, i, e.Msg.Value)
	}
	if twice {
		v.at = [2]int64{v.first[i], e.Msg.Value}
	}
}

func (v *outputOnce) Violation(f bool) string { return v.ViolationDetail(f).English }

// ViolationDetail implements sim.ViolationDetailer.
func (v *outputOnce) ViolationDetail(bool) sim.Violation {
	if v.twice == 0 {
		return sim.Violation{}
	}
	return sim.NewViolation("violation.kafka-output-once", 0,
		fmt.Sprintf("a reader saw the output of %s twice, at offsets %d and %d", v.twice, v.at[0], v.at[1]),
		"Op", v.twice.String(), "First", sim.Itoa(v.at[0]), "Second", sim.Itoa(v.at[1]))
}

func (v *outputOnce) Clone() sim.Invariant {
	c := *v
	c.seen = slices.Clone(v.seen)
	c.first = slices.Clone(v.first)
	return &c
}

func (v *outputOnce) AppendState(b []byte) []byte {
	b = appendList(b, v.seen)
	b = appendInts(b, v.first...)
	return appendInts(b, int64(v.twice), v.at[0], v.at[1])
}
