package lab

import (
	"fmt"
	"slices"
)

// Step is one event a lab node was handed and the lines it answered.
type Step struct {
	Node    string
	N       int    // the node's step, counted from 1 (init)
	Event   string // what the event was
	In      string // the line the harness wrote
	Out     []string
	choices int // fault choices made by the end of the step (for the explorer)
}

// transcript records the steps of one run, in order; each step is
// marked, when it ends, with the number of choices made so far.
type transcript struct {
	steps []Step
	pos   func() int // choices made so far, nil when nobody counts
	bytes int64      // what the steps hold, as counted for --max-memory
}

// Bytes counted per step and per line beside their text (headers,
// slices): an estimate, fixed so that a cut is deterministic.
const (
	stepBytes = 128
	lineBytes = 16
)

// stepsBytes is what steps hold, as the transcript counts it.
func stepsBytes(steps []Step) int64 {
	var n int64
	for i := range steps {
		n += stepBytes + int64(len(steps[i].Node)+len(steps[i].Event)+len(steps[i].In))
		for _, l := range steps[i].Out {
			n += lineBytes + int64(len(l))
		}
	}
	return n
}

// mark records, when step i ends, the choices made so far.
func (t *transcript) mark(i int) {
	if i < len(t.steps) && t.pos != nil {
		t.steps[i].choices = t.pos()
	}
}

// begin opens a step and returns its index (replicas interleave steps).
func (t *transcript) begin(node string, n int, event, in string) int {
	t.steps = append(t.steps, Step{Node: node, N: n, Event: event, In: in})
	t.bytes += stepBytes + int64(len(node)+len(event)+len(in))
	return len(t.steps) - 1
}

func (t *transcript) action(i int, line string) {
	if i < len(t.steps) {
		t.steps[i].Out = append(t.steps[i].Out, line)
		t.bytes += lineBytes + int64(len(line))
	}
}

// NondeterminismError is a node that answered the same event differently
// in two runs of the same schedule prefix: it reads a clock, draws an
// unseeded random, iterates a hash map, or keeps state across runs.
type NondeterminismError struct {
	Node        string
	Step        int
	Event       string
	First, Then string // the first differing answer of each run ("" = none)
	// AfterReset: the second run was by processes reset after the first
	// (capability reset), which answered otherwise than fresh ones.
	AfterReset bool
}

func (e *NondeterminismError) Error() string {
	if e.AfterReset {
		return fmt.Sprintf("lab: node %s answers otherwise after a reset than as a fresh process: step %d (%s) was answered %s by a fresh process and %s after a reset (on reset, clear every variable a fresh process starts without — counters, caches, the node id — or do not declare the reset capability)",
			e.Node, e.Step, e.Event, shown(e.First), shown(e.Then))
	}
	return fmt.Sprintf("lab: node %s is not deterministic: step %d (%s) was answered %s the first time and %s the second (use the seed from init, not a clock or an unseeded random; sort before iterating)",
		e.Node, e.Step, e.Event, shown(e.First), shown(e.Then))
}

func shown(s string) string {
	if s == "" {
		return "with nothing more"
	}
	return quoteLine(s)
}

// compareSteps checks that b repeats a for every step of a that ended
// within the first upto fault choices (every step, if upto < 0), and
// returns the first difference.
func compareSteps(a, b []Step, upto int) error {
	for i := range a {
		if upto >= 0 && a[i].choices > upto {
			return nil
		}
		if i >= len(b) || a[i].In != b[i].In || a[i].Node != b[i].Node {
			return nil // the worlds diverged before: not the node's doing
		}
		if slices.Equal(a[i].Out, b[i].Out) {
			continue
		}
		e := &NondeterminismError{Node: a[i].Node, Step: a[i].N, Event: a[i].Event}
		for j := 0; j < max(len(a[i].Out), len(b[i].Out)); j++ {
			x, y := at(a[i].Out, j), at(b[i].Out, j)
			if x != y {
				e.First, e.Then = x, y
				break
			}
		}
		return e
	}
	return nil
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}
