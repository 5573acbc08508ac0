//go:build unix

package fileio

import "syscall"

// openNoBlock opens a named pipe swapped in after the check without
// waiting for a writer, so the check after the open can refuse it.
const openNoBlock = syscall.O_NONBLOCK
