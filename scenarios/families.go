package scenarios

import (
	"sync"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/flink"
	"github.com/oncesim/once/scenarios/roles/generals"
	"github.com/oncesim/once/scenarios/roles/kafka"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/scenarios/roles/queue"
)

// Families returns every family's Register, in the fixed order
// RegisterFamilies calls them. It is the one place the families are
// listed: a new family adds its Register here.
func Families() []func(*roles.Catalog) {
	return []func(*roles.Catalog){kafka.Register, flink.Register, generals.Register, payments.Register, queue.Register}
}

// RegisterFamilies adds every family of roles to c — roles, invariants,
// metrics and kinds — in the order of Families.
func RegisterFamilies(c *roles.Catalog) {
	for _, register := range Families() {
		register(c)
	}
}

// RoleCatalog returns the catalog of every family, built on first use by
// RegisterFamilies. It is shared: Clone it to add roles, invariants,
// metrics or kinds of your own, and load scenario files with the copy
// (LoadWith).
func RoleCatalog() *roles.Catalog { return roleCatalog() }

var roleCatalog = sync.OnceValue(func() *roles.Catalog {
	c := roles.NewCatalog()
	RegisterFamilies(c)
	return c
})
