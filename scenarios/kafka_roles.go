package scenarios

import "github.com/oncesim/once/sim"

var isolationValues = []string{"read_committed", "read_uncommitted"}

// optionalNode returns the node named by option name, or false when the
// option is absent, empty or "none".
func optionalNode(a *RoleArgs, name string) (sim.NodeID, bool) {
	if v, ok := a.raw(name, ""); !ok || v == "" || v == "none" {
		return 0, false
	}
	return a.Node(name), true
}

func init() {
	registerRole(&Role{
		Name: "kafka-broker",
		Doc:  "partition leader of the input, output and offsets partitions: idempotent appends, epoch fencing, control records, read_committed / read_uncommitted fetches",
		Options: []RoleOption{
			{Name: "fencing", Kind: "enum", Default: "epoch", Values: []string{"epoch", "none"}, Doc: "reject writes of an epoch older than the partition has seen, or accept them (no zombie fencing)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			b := &KafkaBroker{Fencing: a.Enum("fencing", "epoch", "epoch", "none") == "epoch"}
			return b, kafkaBrokerTables()
		},
	})
	registerRole(&Role{
		Name: "kafka-coordinator",
		Doc:  "transaction coordinator: producer ids and epochs, a durable transaction log, commit/abort markers written through the broker",
		Options: []RoleOption{
			{Name: "broker", Kind: "node", Doc: "the partition leader that writes the markers"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			return &KafkaCoordinator{Broker: a.Node("broker")}, kafkaCoordinatorTables()
		},
	})
	registerRole(&Role{
		Name: "kafka-processor",
		Doc:  "read-process-write: consumes the input topic, produces one output per record; transactional under txn, process-then-commit under alo",
		Options: []RoleOption{
			{Name: "broker", Kind: "node", Doc: "the partition leader"},
			{Name: "coordinator", Kind: "node", Doc: "the transaction coordinator"},
			{Name: "db", Kind: "node", Default: "none", Doc: "an external database also written for every record (outside the transaction)"},
			{Name: "batch", Kind: "int", Default: "2", Doc: "input records per transaction (or per offset commit)"},
			{Name: "timeout", Kind: "duration", Default: "1s", Doc: "how long it waits for an answer; an unanswered transactional produce aborts the transaction"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			p := &KafkaProcessor{
				Broker: a.Node("broker"), Coordinator: a.Node("coordinator"),
				Batch: a.Int("batch", 2, 1, 100), Timeout: a.PositiveDuration("timeout", 1000),
			}
			p.DB, p.HasDB = optionalNode(a, "db")
			return p, kafkaProcessorTables()
		},
	})
	registerRole(&Role{
		Name: "kafka-reader",
		Doc:  "a downstream consumer of the output topic; every record it sees is an effect on kafka-output",
		Options: []RoleOption{
			{Name: "broker", Kind: "node", Doc: "the partition leader"},
			{Name: "isolation", Kind: "enum", Default: "read_committed", Values: isolationValues, Doc: "read_committed skips aborted and open transactions; read_uncommitted sees every record"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			r := &KafkaReader{Broker: a.Node("broker"), Isolation: readCommitted}
			if a.Enum("isolation", "read_committed", isolationValues...) == "read_uncommitted" {
				r.Isolation = readUncommitted
			}
			return r, kafkaReaderTables()
		},
	})
	registerRole(&Role{
		Name: "external-db",
		Doc:  "a database outside the Kafka/Flink boundary; autocommit writes, or XA-style prepare/commit; every committed row is an effect on db-rows",
		Options: []RoleOption{
			{Name: "mode", Kind: "enum", Default: "insert", Values: []string{"insert", "upsert"}, Doc: "insert a row per write, or upsert on the natural key (the operation)"},
		},
		New: func(a *RoleArgs) (sim.Node, []sim.TableSpec) {
			return &ExternalDB{Upsert: a.Enum("mode", "insert", "insert", "upsert") == "upsert"}, externalDBTables()
		},
	})
}
