package queue

import "github.com/oncesim/once/sim"

// waiting is embedded by the nodes that start nothing: a broker driven by
// publishes, a consumer the broker delivers to.
type waiting struct{}

// Start does nothing: the node waits for messages.
func (waiting) Start(*sim.Context) {}

// passive is embedded by the nodes that only answer messages: a consumer
// the broker delivers to (and redelivers what was not committed), a log
// that answers fetches. They start nothing and arm no timer.
type passive struct{ waiting }

// Timer is unused.
func (passive) Timer(*sim.Context, sim.Timer) {}
