// Package renumbered holds the test that runs the built-in scenarios
// under another numbering of their kinds: a catalog built with names
// registered before the families', and the families in another order.
// It is a package of its own because building that catalog sets the
// families' kind variables (roles.KindNames) for the rest of its test
// binary.
package renumbered
