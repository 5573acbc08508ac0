package runs

import (
	"fmt"
	"runtime/debug"
	"unsafe"

	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// MaxMemory is the most a command that runs scenarios (run, live) may
// hold: scenario files can ask for 100,000 operations and a billion
// events, and what a run keeps grows with both. The bound is kept by
// accounting, not by watching the process: every run charges what it
// keeps — a fixed cost per operation (its outcome, report row and
// rendered line) and each trace event — before it keeps it, so a run
// that would pass the bound is cut at the same event on every machine,
// and the command refuses in one line naming the limit.
const MaxMemory int64 = 1 << 30

// The accounting's costs. The per-operation cost is measured: a run of
// 100,000 operations under three semantics with its report rendered as
// text peaked at 686 MB resident, about 2.3 KB per operation and
// semantics with the traces included; 2 KiB per operation is charged
// and the trace apart. A kept trace event costs its size twice over (the
// slice that holds it grows by doubling).
const (
	opCost    int64 = 2 << 10
	eventCost       = 2 * int64(unsafe.Sizeof(sim.Event{}))
)

// accountedShare is the part of MaxMemory the accounting hands out; the
// rest is the garbage collector's headroom (its soft limit is set to
// MaxMemory by Memory.Enforce) and the program's own.
const accountedShare = 3

// Memory is the account of one command's runs: what they keep, against
// the limit. The zero value and nil account nothing (unbounded).
type Memory struct {
	limit int64 // bytes the runs may keep; 0 = unbounded
	used  int64
}

// NewMemory returns an account of limit bytes for the runs of one command,
// of which three quarters are handed out (the rest is headroom).
func NewMemory(limit int64) *Memory {
	return &Memory{limit: limit / 4 * accountedShare}
}

// Enforce sets the garbage collector's soft limit to MaxMemory, so that
// the heap the account bounds is also what the process holds. Called by
// the commands that account their runs.
func Enforce() { debug.SetMemoryLimit(MaxMemory) }

// MemoryError is a command refused because its runs would pass MaxMemory.
type MemoryError struct {
	What string // what passed the limit: "100000 operations", "the trace"
	Need int64  // bytes it needed beyond what was kept (0: unknown)
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s would pass the memory limit of %s (lower ops or budget.events)", e.What, search.FormatBytes(MaxMemory))
}

// Reserve charges the per-operation cost of a run of ops operations, or
// refuses with a *MemoryError when the account cannot hold it (live
// reserves its runs before starting any).
func (m *Memory) Reserve(ops int) error {
	if m == nil || m.limit == 0 {
		return nil
	}
	need := int64(ops) * opCost
	if m.used+need > m.limit {
		return &MemoryError{What: fmt.Sprintf("%d operations", ops), Need: need}
	}
	m.used += need
	return nil
}

// eventCap returns how many trace events the account can still keep, or
// 0 when it is unbounded.
func (m *Memory) eventCap() int {
	if m == nil || m.limit == 0 {
		return 0
	}
	return int(max((m.limit-m.used)/eventCost, 1))
}

// chargeEvents charges n kept trace events.
func (m *Memory) chargeEvents(n int) {
	if m != nil && m.limit != 0 {
		m.used += int64(n) * eventCost
	}
}
