// Package roles is what every family of roles shares: the Catalog a
// scenario file draws its roles, invariants and metrics from, the typed
// role options (each declared once, with its default, for both the
// documentation and the reading), the message/timer/sink/crash-point name
// tables, and the few kinds, status codes and tables several families use.
//
// The families live below it, one package each (payments, queue, kafka,
// flink, generals); each adds its roles, invariants and metrics to a
// Catalog in its Register function, which scenarios.RegisterFamilies calls
// in a fixed order — no family registers anything from an init function.
// Package scenarios imports them all; a family never imports scenarios.
package roles
