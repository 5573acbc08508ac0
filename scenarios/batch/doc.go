// Package batch runs many seeds of many run configurations and folds their
// outcomes into tallies: the engine behind `once matrix` and `once sweep`.
//
// # The ordered fold
//
// The seeds 1..N of every configuration are cut into fixed chunks of
// ChunkSeeds consecutive seeds; a chunk is the unit of work. Workers take
// chunks in any order and at any speed, but each chunk folds its own
// seeds, in seed order, into its own Tally, and when every chunk is done
// the chunks of a configuration are merged in chunk order. The sequence of
// additions is therefore fixed by N alone — never by the number of
// workers or by how the scheduler interleaves them — so every count and
// every floating-point metric sum, and every byte a report prints from
// them, is the same for 1 worker or 64.
//
// Each run is single-threaded and deterministic; the goroutines only run
// different runs side by side.
package batch
