package brokers

import "github.com/oncesim/once/sim"

func newConsumerDriver(cfg *sim.Config) driver { return nil }
