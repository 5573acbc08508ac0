// Package sim is the deterministic discrete-event engine of once.
//
// A run is a pure function of (scenario, semantics, parameters, chooser):
// nodes are state machines stepped by the engine, every nondeterministic
// decision is a Choice answered by a Chooser, and everything that happens is
// appended to a trace of Events. The checker folds that trace into a
// per-operation effect cardinality; nothing reads live node state.
//
// Node state lives in Tables owned by the engine, split into durable and
// volatile tables. A crash empties the volatile tables and cancels the
// node's timers; durable tables survive. Because the engine owns all state,
// a World can be cloned and fingerprinted without the roles' help.
//
// sim is the engine alone. The exhaustive search (the explorer, its
// visited set, its parts, shards and memory budget, and the shrinker)
// lives in sim/search, above it, and drives a World only through the
// exported API of snapshot.go: Clone and CopyFrom, Step with a Chooser,
// Ended, Pending, JudgeStatus, FingerprintWith and StateBytes.
//
// The package imports the standard library only and starts no goroutines.
package sim
