package roles

import "github.com/oncesim/once/sim"

// Key store states (the lesson's PROCESSING / COMPLETED), shared by the
// Idempotency-Key stores of the payments family and the dedup stores of the
// queue family.
const (
	KeyProcessing int32 = iota + 1
	KeyCompleted
)

// KeyStates names the key store states in a trace.
var KeyStates = []string{"", "PROCESSING", "COMPLETED"}

// StoreValues are the values of a "store" option: a durable table, or
// memory lost on a crash.
var StoreValues = []string{"durable", "memory"}

// StoreTable declares a traced key store, durable or not.
func StoreTable(name string, durable bool, states []string) sim.TableSpec {
	return sim.TableSpec{Name: name, Durable: durable, Traced: true, States: states}
}

// Idempotent reports whether sem promises an effect per operation, not per
// delivery: the semantics under which services dedup by key.
func Idempotent(sem sim.Semantics) bool { return sem == sim.Idempotent || sem == sim.Transactional }
