// Package prereg registers names before any scenario family does, for the
// test that pins digests under another numbering: its import path sorts
// before every package under scenarios/roles/ (Go initialises packages in
// import-path order once their imports are ready), so every family's
// message, timer, sink and crash-point numbers shift while their names stay.
// Only that test imports it.
package prereg

import "github.com/oncesim/once/scenarios/roles"

// Names are the names registered here, first of their kind after the
// shared ones of package roles.
var Names = []string{"prereg-a", "prereg-b", "prereg-c"}

func init() {
	for _, n := range Names {
		roles.Message(n)
		roles.Timer(n)
		roles.Sink(n)
		roles.Point(n)
	}
}
