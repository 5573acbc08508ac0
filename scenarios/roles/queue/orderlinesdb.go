package queue

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

func registerOrderlinesdb(c *roles.Catalog) {
	c.Register(&roles.Role{
		Name: "order-lines-db",
		Doc: "the order_lines table as a database node of its own (a key-store): every row an insert creates is an effect on order-lines; " +
			"db-insert has no unique constraint, db-insert-if-absent is INSERT … ON CONFLICT (order_id, line_id) DO NOTHING",
		Store: true,
		New: func(*roles.Args) (sim.Node, []sim.TableSpec) {
			return &payments.KeyStore{CountInserts: true, InsertSink: SinkOrderLines}, payments.KeyStoreTables()
		},
	})
}
