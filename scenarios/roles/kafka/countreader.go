package kafka

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// CountReader is a downstream consumer of a Kafka Streams count's output
// topic. Like Reader, every record it reads is one effect on kafka-output;
// it also reads the count the record carries and, when the count of the
// record's key goes up, adds the difference as effects on streams-count:
// an operation's streams-count effects are the highest count its key
// showed downstream.
type CountReader struct {
	Reader
}

const crCounts sim.TableID = 1 // key (operation) → {Value: highest count read}

// Receive counts a record it has not read yet and fetches the next one.
func (c *CountReader) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind == MsgRecord {
		r := decodeRecord(m)
		pos, ok := ctx.Get(krPosition, 1, r.Op)
		if !ok {
			pos.Value = 1
		}
		if r.Topic == topicOutput && r.Offset >= pos.Value {
			seen, _ := ctx.Get(crCounts, int64(r.Op), r.Op)
			for n := seen.Value + 1; n <= r.Count; n++ {
				ctx.Effect(SinkCount, r.Op, n)
			}
			if r.Count > seen.Value {
				ctx.Put(crCounts, int64(r.Op), r.Op, sim.Record{Value: r.Count})
			}
		}
	}
	c.Reader.Receive(ctx, m)
}

// buildCountreader builds a kafka-count-reader node from its options, each declared where it is read.
func buildCountreader(a *roles.Args) (sim.Node, []sim.TableSpec) {
	r := &CountReader{newReader(a)}
	return r, append(kafkaReaderTables(), sim.TableSpec{Name: "counts", Durable: true, AgeFree: true})
}
