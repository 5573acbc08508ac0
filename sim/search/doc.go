// Package search is the explorer of once: an exhaustive, bounded search
// of every schedule of a configuration, over the engine of package sim.
//
// Explore walks the choice tree depth first — each engine step a
// transition, the choices asked inside one step (drop? duplicate? crash?
// preempt?) enumerated as an odometer within the fault and preemption
// budgets — and skips a state already explored with no more faults used
// (the visited set, fingerprint_set.go). A large search runs as Parts
// parts on several workers, or as shards on several machines, with the
// same verdict, counterexample and counts (explore_parts.go,
// explore_shard.go); its memory is counted and bounded
// (explore_search.go, explore_memory.go); Tuning trades memory against
// time. Shrink and Violates reduce a counterexample's fault plan;
// ExploreFewer searches the budgets below it.
//
// The package imports sim and the standard library only, and drives a
// sim.World through the engine's exported API alone: Clone and CopyFrom
// (snapshot and restore), SetChooser and Step (one transition, its
// choice points answered by the search's chooser), Ended, Pending and
// JudgeStatus (where the step left the world), FingerprintWith (the
// state, for the visited set) and StateBytes (its size, for the budget).
//
// Reductions plug in at two places. A state's key in the visited set is
// computed in one place (explorer.fingerprint, then stateKey): the
// symmetry reduction (reduce.go) replaces the fingerprint by its orbit's
// (sim.Symmetry: the engine fingerprinting the state under the renaming
// of its interchangeable operations that orders them canonically) and
// keeps the concrete choices on the stack, so a counterexample is still
// reported and replayed in concrete ids. The alternatives of a step are
// enumerated in one place (stepChooser): a partial-order reduction would
// prune there the orders of steps that commute; there is none yet.
package search
