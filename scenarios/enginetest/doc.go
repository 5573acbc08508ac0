// Package enginetest holds the engine's tests over the scenario catalog:
// the tests of package sim that need real scenarios (double-billing,
// two-generals, flink-2pc-sink, …) rather than the small worlds sim's own
// tests build. They live here so that sim's tests never import scenarios
// (sim's guard test checks it): exhaustive search (replay exactness,
// workers, parts, shards, budgets), reused worlds against fresh ones,
// record and replay of fault plans, determinism across goroutines and
// processes, and the double-billing benchmarks.
//
// The package has no code outside its tests.
package enginetest
