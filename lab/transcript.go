package lab

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
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
	first, then := shown(e.First), shown(e.Then)
	if path, x, y, ok := firstDiff(e.First, e.Then); ok {
		first, then = fmt.Sprintf("with %s = %s (%s)", path, x, first), fmt.Sprintf("with %s = %s (%s)", path, y, then)
	}
	if e.AfterReset {
		return fmt.Sprintf("lab: node %s answers otherwise after a reset than as a fresh process: step %d (%s) was answered %s by a fresh process and %s after a reset, while two fresh processes agree (on reset, clear every variable a fresh process starts without — counters, caches, the node id — or do not declare the reset capability)",
			e.Node, e.Step, e.Event, first, then)
	}
	return fmt.Sprintf("lab: node %s is not deterministic: step %d (%s) was answered %s the first time and %s the second (use the seed from init, not a clock or an unseeded random; sort before iterating)",
		e.Node, e.Step, e.Event, first, then)
}

// firstDiff finds the first field, in the order of the first line, where
// two JSON lines differ: its full path and both values (a field one of
// them lacks is "absent"). ok is false when either is not a JSON object.
func firstDiff(a, b string) (path, x, y string, ok bool) {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return "", "", "", false
	}
	oa, okA := va.(map[string]any)
	ob, okB := vb.(map[string]any)
	if !okA || !okB {
		return "", "", "", false
	}
	return diffObjects("", oa, ob, keyOrder(a))
}

func diffObjects(prefix string, a, b map[string]any, order func(map[string]any) []string) (string, string, string, bool) {
	keys := order(a)
	for _, k := range order(b) {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		x, inA := a[k]
		y, inB := b[k]
		if inA && inB && reflect.DeepEqual(x, y) {
			continue
		}
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		if mx, ok := x.(map[string]any); ok {
			if my, ok := y.(map[string]any); ok {
				return diffObjects(path, mx, my, order)
			}
		}
		return path, jsonValue(x, inA), jsonValue(y, inB), true
	}
	return "", "", "", false
}

// keyOrder orders an object's keys as they appear in line (sorted when
// a key is not found there).
func keyOrder(line string) func(map[string]any) []string {
	return func(m map[string]any) []string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			pi, pj := strings.Index(line, strconv.Quote(keys[i])+":"), strings.Index(line, strconv.Quote(keys[j])+":")
			if pi < 0 || pj < 0 || pi == pj {
				return keys[i] < keys[j]
			}
			return pi < pj
		})
		return keys
	}
}

func jsonValue(v any, present bool) string {
	if !present {
		return "absent"
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return quoteShort(string(raw))
}

// quoteShort cuts a value to a readable length.
func quoteShort(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
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
