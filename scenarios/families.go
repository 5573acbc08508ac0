package scenarios

// The families of roles. Importing them registers their roles, invariants,
// metrics and kinds (each in its own init functions) before the catalog
// loads; a scenario file can use any of them.
import (
	_ "github.com/oncesim/once/scenarios/roles/flink"
	_ "github.com/oncesim/once/scenarios/roles/generals"
	_ "github.com/oncesim/once/scenarios/roles/kafka"
	_ "github.com/oncesim/once/scenarios/roles/payments"
	_ "github.com/oncesim/once/scenarios/roles/queue"
)
