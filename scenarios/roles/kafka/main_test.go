package kafka

import (
	"os"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
)

// TestMain numbers the family's kinds before its tests: role code names
// them by package variables that a catalog sets (roles.KindNames).
func TestMain(m *testing.M) {
	roles.NewCatalog(Register)
	os.Exit(m.Run())
}
