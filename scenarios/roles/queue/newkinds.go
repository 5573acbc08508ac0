package queue

import "github.com/oncesim/once/sim"

// Sinks of the telemetry, Pub/Sub and key-retention lessons, in a file of
// their own so those lessons do not touch the family's shared kinds.
var (
	SinkMetricSamples sim.SinkID // a telemetry sample added to a dashboard counter
	SinkOrdersShipped sim.SinkID // an order shipped by a Pub/Sub subscriber

	TimerSweep sim.TimerKind // a key store's periodic sweep of expired rows
)
