package scenarios

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

var isolationValues = []string{"read_committed", "read_uncommitted"}

var (
	kafkaBrokerFencing        = roles.Enum("fencing", "epoch", []string{"epoch", "none"}, "reject writes of an epoch older than the partition has seen, or accept them (no zombie fencing)")
	kafkaCoordinatorBroker    = roles.Node("broker", "the partition leader that writes the markers")
	kafkaProcessorBroker      = roles.Node("broker", "the partition leader")
	kafkaProcessorCoordinator = roles.Node("coordinator", "the transaction coordinator")
	kafkaProcessorDB          = roles.OptionalNode("db", "an external database also written for every record (outside the transaction)")
	kafkaProcessorBatch       = roles.Int("batch", 2, 1, 100, "input records per transaction (or per offset commit)")
	kafkaProcessorTimeout     = roles.PositiveDuration("timeout", "1s", "how long it waits for an answer; an unanswered transactional produce aborts the transaction")
	kafkaReaderBroker         = roles.Node("broker", "the partition leader")
	kafkaReaderIsolation      = roles.Enum("isolation", "read_committed", isolationValues, "read_committed skips aborted and open transactions; read_uncommitted sees every record")
	externalDbMode            = roles.Enum("mode", "insert", []string{"insert", "upsert"}, "insert a row per write, or upsert on the natural key (the operation)")
)

func init() {
	roles.Register(&roles.Role{
		Name:    "kafka-broker",
		Doc:     "partition leader of the input, output and offsets partitions: idempotent appends, epoch fencing, control records, read_committed / read_uncommitted fetches",
		Options: []roles.Option{kafkaBrokerFencing},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			b := &KafkaBroker{Fencing: kafkaBrokerFencing.Get(a) == "epoch"}
			return b, kafkaBrokerTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "kafka-coordinator",
		Doc:     "transaction coordinator: producer ids and epochs, a durable transaction log, commit/abort markers written through the broker",
		Options: []roles.Option{kafkaCoordinatorBroker},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &KafkaCoordinator{Broker: kafkaCoordinatorBroker.Get(a)}, kafkaCoordinatorTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "kafka-processor",
		Doc:     "read-process-write: consumes the input topic, produces one output per record; transactional under txn, process-then-commit under alo",
		Options: []roles.Option{kafkaProcessorBroker, kafkaProcessorCoordinator, kafkaProcessorDB, kafkaProcessorBatch, kafkaProcessorTimeout},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			p := &KafkaProcessor{
				Broker: kafkaProcessorBroker.Get(a), Coordinator: kafkaProcessorCoordinator.Get(a),
				Batch: kafkaProcessorBatch.Get(a), Timeout: kafkaProcessorTimeout.Get(a),
			}
			p.DB, p.HasDB = kafkaProcessorDB.Get(a)
			return p, kafkaProcessorTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "kafka-reader",
		Doc:     "a downstream consumer of the output topic; every record it sees is an effect on kafka-output",
		Options: []roles.Option{kafkaReaderBroker, kafkaReaderIsolation},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			r := &KafkaReader{Broker: kafkaReaderBroker.Get(a), Isolation: readCommitted}
			if kafkaReaderIsolation.Get(a) == "read_uncommitted" {
				r.Isolation = readUncommitted
			}
			return r, kafkaReaderTables()
		},
	})
	roles.Register(&roles.Role{
		Name:    "external-db",
		Doc:     "a database outside the Kafka/Flink boundary; autocommit writes, or XA-style prepare/commit; every committed row is an effect on db-rows",
		Options: []roles.Option{externalDbMode},
		New: func(a *roles.Args) (sim.Node, []sim.TableSpec) {
			return &ExternalDB{Upsert: externalDbMode.Get(a) == "upsert"}, externalDBTables()
		},
	})
}
