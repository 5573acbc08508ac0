// Package explore holds the library side of `once explore`: the memory
// budget of a search, the progress line, the fault kinds that can branch,
// and the minimal counterexample (shrunk, looked for with fewer faults,
// rendered with the command that replays it).
package explore
