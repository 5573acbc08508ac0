//go:build !linux

package lab

import "syscall"

// becomeSubreaper has no portable equivalent: off Linux, a descendant
// that left the node's process group and outlived its parent escapes.
func becomeSubreaper() {}

// descendants cannot be listed without /proc.
func descendants(int) []int { return nil }

// sweep has nothing to sweep without a subreaper.
func sweep(string) {}

// killDescendants cannot find them without /proc: they go with the
// node's process group when it is killed.
func killDescendants(int, string) {}

// procAttr starts a node in a process group of its own (no parent-death
// signal off Linux).
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
