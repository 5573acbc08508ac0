package queue

import "github.com/oncesim/once/scenarios/roles"

// Sinks of the telemetry, Pub/Sub and key-retention lessons, in a file of
// their own so those lessons do not touch the family's shared kinds.
var (
	SinkMetricSamples = roles.Sink("metric-samples") // a telemetry sample added to a dashboard counter
	SinkOrdersShipped = roles.Sink("orders-shipped") // an order shipped by a Pub/Sub subscriber

	TimerSweep = roles.Timer("sweep") // a key store's periodic sweep of expired rows
)
