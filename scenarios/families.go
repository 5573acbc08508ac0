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

// RegisterFamilies adds every family of roles to c — roles, invariants,
// metrics and kinds — in this fixed order. It is the one place the
// families are listed: a new family adds its Register here.
func RegisterFamilies(c *roles.Catalog) {
	kafka.Register(c)
	flink.Register(c)
	generals.Register(c)
	payments.Register(c)
	queue.Register(c)
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
