package flink

import (
	"os"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/kafka"
)

// TestMain numbers the family's kinds, and the kafka family's its roles
// send, before its tests (roles.KindNames).
func TestMain(m *testing.M) {
	roles.NewCatalog(kafka.Register, Register)
	os.Exit(m.Run())
}
