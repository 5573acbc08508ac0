package payments

import "github.com/oncesim/once/sim"

// answerer is embedded in a node that only answers requests: it does
// nothing at the start and sets no timer.
type answerer struct{}

// Start does nothing: the node only answers.
func (answerer) Start(*sim.Context) {}

// Timer is unused.
func (answerer) Timer(*sim.Context, sim.Timer) {}
