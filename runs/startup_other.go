//go:build !unix

package runs

import "time"

// processCPU is not measured off Unix.
func processCPU() (time.Duration, bool) { return 0, false }
