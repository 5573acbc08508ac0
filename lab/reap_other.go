//go:build !linux

package lab

// becomeSubreaper has no portable equivalent: off Linux, a descendant
// that left the node's process group and outlived its parent escapes.
func becomeSubreaper() {}

// descendants cannot be listed without /proc.
func descendants(int) []int { return nil }

// sweep has nothing to sweep without a subreaper.
func sweep(string) {}
