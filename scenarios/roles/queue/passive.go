package queue

import "github.com/oncesim/once/sim"

// passive is embedded by the nodes that only answer messages: a consumer
// the broker delivers to (and redelivers what was not committed), a log
// that answers fetches. They start nothing and arm no timer.
type passive struct{}

// Start does nothing: the node waits for messages.
func (passive) Start(*sim.Context) {}

// Timer is unused.
func (passive) Timer(*sim.Context, sim.Timer) {}
