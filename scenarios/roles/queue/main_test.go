package queue

import (
	"os"
	"testing"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
)

// TestMain numbers the family's kinds, and the payments family's its roles
// send, before its tests (roles.KindNames).
func TestMain(m *testing.M) {
	roles.NewCatalog(payments.Register, Register)
	os.Exit(m.Run())
}
