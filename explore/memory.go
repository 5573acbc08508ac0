package explore

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"

	"github.com/oncesim/once/sim/search"
)

// The memory a search may hold, and the process around it.
//
// --max-memory bounds what the search counts (search.Options.MaxMemory:
// visited set, stacks, world buffers, the shard plan), so the cut is
// deterministic. The process holds more: the Go runtime, the garbage not
// yet collected, the spare capacity of buffers. Two things keep its
// resident size near the budget: a soft limit on the Go heap (the garbage
// collector works harder as the heap nears it, instead of letting it grow
// to twice the live data), and a budget capped below the address-space
// limit (ulimit -v), so that a search under such a limit is cut by its
// budget, INCOMPLETE with its statistics, before an allocation fails and
// the runtime aborts the process.

// heapSlack is what the heap limit allows above the budget (besides a
// sixteenth of it): the runtime's own structures, the world buffers'
// spare capacity, the invariants' copies.
const heapSlack = 32 << 20

// addressSlack is the address space a search needs beside twice its
// budget: the heap grows by 64 MiB arenas (reserved whole) with their
// metadata, and threads and the runtime map more as the search starts.
// With 32 MiB the runtime died at 33 MB in use under a limit that left
// a 16 MiB budget (TestIntegrationExploreUnderAddressSpaceLimit).
const addressSlack = 256 << 20

// MemoryBudget returns the budget a search gets for the asked one: capped
// so that twice it (the heap and the garbage collector's headroom) fits in
// what the address-space limit leaves beside the process's present
// mappings and addressSlack. capped says the cap applied.
func MemoryBudget(asked int64) (budget int64, capped bool) {
	limit := addressSpaceLimit()
	if limit <= 0 {
		return asked, false
	}
	room := (limit - mappedBytes() - addressSlack) / 2
	room = max(room, 1<<20) // something to count against: the search is cut at once
	if asked > room {
		return room &^ (1<<20 - 1), true // whole MiB, as FormatBytes prints it
	}
	return asked, false
}

// LimitHeap sets the Go heap's soft limit for a search with the given
// budget, and returns a function restoring the previous limit.
func LimitHeap(budget int64) func() {
	old := debug.SetMemoryLimit(HeapLimit(budget, runtimeBytes()))
	return func() { debug.SetMemoryLimit(old) }
}

// HeapLimit is the soft limit of the Go runtime's memory for a search
// with the given budget, in a process whose runtime holds base bytes
// before it starts: the budget with a sixteenth and heapSlack above it,
// but never more than base and 1.25 times the budget, the bound the
// process's resident size is held to (its base plus 1.25 × --max-memory;
// the runtime's memory is most of the resident size, the rest is the
// binary's text, part of the base). The garbage collector works harder
// near the limit instead of letting the heap grow to twice the live data.
func HeapLimit(budget, base int64) int64 {
	return min(budget+budget/16+heapSlack, base+budget+budget/4)
}

// runtimeBytes is the memory the Go runtime has mapped and not given
// back (what debug.SetMemoryLimit limits).
func runtimeBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// addressSpaceLimit is RLIMIT_AS's soft limit in bytes, or 0 when there is
// none.
func addressSpaceLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) || r.Cur > 1<<62 {
		return 0
	}
	return int64(r.Cur)
}

// mappedBytes is the process's present virtual size (VmSize), which counts
// against RLIMIT_AS: the Go runtime reserves address space up front.
func mappedBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// MaxMemory reads --max-memory (given: set on the command line) and
// returns the budget the search holds to, capped by the address-space
// limit (a cap of a size the user gave is said on warn; of the default,
// the cut names it), and asked: the size a replay line repeats, 0 when
// the flag was left out.
func MaxMemory(flag string, given bool, warn io.Writer) (budget, asked int64, err error) {
	size, err := ParseBytes(flag)
	if err != nil {
		return 0, 0, fmt.Errorf("--max-memory %q: %v", flag, err)
	}
	if given {
		asked = size
	}
	budget, capped := MemoryBudget(size)
	if capped && given {
		fmt.Fprintf(warn, "once: --max-memory %s capped to %s by the address-space limit (ulimit -v)\n", search.FormatBytes(size), search.FormatBytes(budget))
	}
	return budget, asked, nil
}
