// Package batch runs many seeds of many run configurations and folds their
// outcomes into tallies: the engine behind `once matrix` and `once sweep`.
//
// # A fold that does not care about order
//
// Workers take chunks of ChunkSeeds consecutive seeds in any order and at
// any speed and fold every run into tallies of their own; the tallies are
// merged when all are done. Every field of a tally is a count, a first
// seed (a minimum) or an exact sum of a metric (scenarios.ExactSum, no
// rounding), so the result is the same — every count, every metric sum,
// every byte a report prints from them — for 1 worker or 64, and for one
// machine or a batch cut into shards (Shard) whose tallies are merged
// elsewhere. Memory is workers × configurations tallies, constant in the
// number of seeds.
//
// Each run is single-threaded and deterministic; the goroutines only run
// different runs side by side.
package batch
