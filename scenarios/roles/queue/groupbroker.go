package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// GroupBroker is Broker with a consumer group of two: record at offset k
// goes to one member, and each redelivery to the other one, as a queue
// hands an unacknowledged message to whichever consumer polls next. Two
// copies of one record in the log (a producer's resend, a duplicated
// publish) can then be processed by both members at once: the
// concurrency a plain "check, then insert" does not survive.
type GroupBroker struct {
	Broker
	Second sim.NodeID // the group's second member
}

// Receive appends a published record, or marks a committed one.
func (b *GroupBroker) Receive(ctx *sim.Context, m sim.Message) { b.receive(ctx, m, b.member) }

// Timer redelivers a record whose offset was not committed in time.
func (b *GroupBroker) Timer(ctx *sim.Context, t sim.Timer) { b.timer(ctx, t, b.member) }

// member picks the consumer for the given delivery of the record at
// offset: alternate members, starting from the offset's parity.
func (b *GroupBroker) member(offset int64, deliveries int32) sim.NodeID {
	if (offset+int64(deliveries))%2 == 0 {
		return b.Consumer
	}
	return b.Second
}

// buildGroupbroker builds a group-broker node from its options, each declared where it is read.
func buildGroupbroker(a *roles.Args) (sim.Node, []sim.TableSpec) {
	consumer := brokerConsumer(a)
	second := a.Node("second", "the consumer group's second member")
	b := &GroupBroker{Broker: Broker{Consumer: consumer, Visibility: brokerVisibility(a)}, Second: second}
	return b, []sim.TableSpec{{Name: "log", Durable: true, AgeFree: true}, {Name: "seen", Durable: true, AgeFree: true}}
}
