package queue

import (
	"os"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
)

// TestMain numbers the family's kinds before its tests: role code names
// them by package variables that a catalog sets (roles.KindNames).
func TestMain(m *testing.M) {
	c := roles.NewCatalog()
	payments.Register(c)
	Register(c)
	os.Exit(m.Run())
}
