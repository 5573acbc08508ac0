package scenarios

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// Plan is a saved run: the scenario, its settings, the jitter seed and the
// faults, each named by what it hits. `once run --save` writes one; `once
// replay` reads it back. The format is plain text, one directive per line:
//
//	# comments and blank lines are ignored
//	scenario double-billing   # or: file my-scenario.yaml sha256:HEX
//	semantics at-least-once
//	ops 5
//	seed 7       # jitter drawn from this seed; without it, no jitter
//	faults loss=0.1 ack-loss=0.3 dup=0 slow=0 crash=0
//	set key=per-operation store=durable
//	max-events 5000   # budgets given on the command line, if any
//	max-time 30s
//	loss from=service to=client msg=pay-response op=3 attempt=1 occurrence=1
//	crash node=service point=after-charge msg=charge-result op=2 attempt=1 occurrence=1
//
// A fault line starts with its kind (loss, duplicate, slow, crash); the
// fault probabilities only say which links and nodes offer a choice at all.
type Plan struct {
	Scenario  string
	File      string // a scenario file instead of a catalog name
	FileHash  string // "sha256:HEX" of the scenario file's bytes, if the plan carries it
	NameLine  int    // line of the scenario (or file) directive, for errors
	Semantics sim.Semantics
	Ops       int
	Seed      uint64 // the seed of the jitter; faults come from Schedule
	Jitter    bool   // a seed line was given: draw jitter from Seed (else none)
	Faults    Faults
	Params    map[string]string
	MaxEvents int      // the run's event budget; 0 = the scenario's
	MaxTime   sim.Time // the run's virtual-time budget; 0 = the scenario's
	// FaultsUntil and Settle are the run's liveness phase (Settings);
	// 0 = none.
	FaultsUntil, Settle sim.Time
	Schedule            []PlanFault

	semanticsPos planPos            // where the semantics value is, for Check
	paramPos     map[string]planPos // where each set value's name is, for Check
}

// planPos is a line and column of a plan file.
type planPos struct{ line, col int }

// PlanFault is one fault line, still symbolic: names are resolved against
// the scenario's topology by Resolve.
type PlanFault struct {
	Line, Col  int // position of the kind word, for errors
	Kind       sim.ChoiceKind
	Node       string // the sender (messages) or the crashing node
	Peer       string // the receiver (messages)
	Msg        string
	Point      string
	Op         int
	Attempt    int
	Occurrence int
	cols       map[string]int
}

// PlanError is an error at a position of a plan file.
type PlanError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as FILE:LINE:COL: message.
func (e *PlanError) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// ParsePlan reads a plan. name is used in error messages. The bytes must
// be text (UTF-8, no NUL or control characters; a leading byte-order mark
// is skipped) and at most MaxPlanFileBytes long; a directive, a fault
// field, a fault probability or a parameter given twice is an error.
func ParsePlan(name string, data []byte) (*Plan, error) {
	data = stripBOM(data)
	if bad := checkInput(data, MaxPlanFileBytes, "plan file"); bad != nil {
		return nil, &PlanError{File: name, Line: bad.line, Col: bad.col, Msg: bad.msg}
	}
	p := &Plan{Params: map[string]string{}, paramPos: map[string]planPos{}}
	seen := map[string]bool{}
	var settleAt *PlanError // where settle was given, for a settle without faults-until
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		words, cols := fields(text)
		if len(words) == 0 {
			continue
		}
		errAt := func(col int, format string, args ...any) error {
			return &PlanError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
		}
		dir, args, argCols := words[0], words[1:], cols[1:]
		single := func() (string, error) {
			if len(args) != 1 {
				return "", errAt(cols[0], "%s wants exactly one value", dir)
			}
			return args[0], nil
		}
		switch dir {
		case "scenario", "file", "semantics", "ops", "seed", "faults", "max-events", "max-time", "faults-until", "settle":
			if seen[dir] {
				return nil, errAt(cols[0], "%s given twice", dir)
			}
			if (dir == "scenario" && seen["file"]) || (dir == "file" && seen["scenario"]) {
				return nil, errAt(cols[0], "a plan names either a scenario or a file, not both")
			}
			seen[dir] = true
		}
		switch dir {
		case "scenario":
			v, err := single()
			if err != nil {
				return nil, err
			}
			p.NameLine, p.Scenario = line, v
		case "file":
			if len(args) < 1 || len(args) > 2 {
				return nil, errAt(cols[0], "file wants a path and, optionally, the file's sha256:HEX")
			}
			p.NameLine, p.File = line, args[0]
			if len(args) == 2 {
				if !validFileHash(args[1]) {
					return nil, errAt(argCols[1], "file: the hash is not sha256: and 64 hex digits")
				}
				p.FileHash = args[1]
			}
		case "semantics":
			v, err := single()
			if err != nil {
				return nil, err
			}
			sem, err := sim.ParseSemantics(v)
			if err != nil {
				return nil, errAt(argCols[0], "%v", err)
			}
			p.Semantics = sem
			p.semanticsPos = planPos{line, argCols[0]}
		case "ops":
			v, err := single()
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100_000 {
				return nil, errAt(argCols[0], "ops %q: want an integer 1..100000", v)
			}
			p.Ops = n
		case "seed":
			v, err := single()
			if err != nil {
				return nil, err
			}
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, errAt(argCols[0], "seed %q: want a non-negative integer", v)
			}
			p.Seed, p.Jitter = n, true
		case "max-events":
			v, err := single()
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > sim.MaxEventBudget {
				return nil, errAt(argCols[0], "max-events %q: want an integer 1..%d", v, sim.MaxEventBudget)
			}
			p.MaxEvents = n
		case "max-time":
			v, err := single()
			if err != nil {
				return nil, err
			}
			d, err := ParseDuration(v)
			if err != nil || d < 1 {
				return nil, errAt(argCols[0], "max-time %q: want a positive duration (e.g. 30s)", v)
			}
			p.MaxTime = d
		case "faults-until", "settle":
			v, err := single()
			if err != nil {
				return nil, err
			}
			d, err := ParseDuration(v)
			if err != nil || d < 1 {
				return nil, errAt(argCols[0], "%s %q: want a positive duration (e.g. 2s)", dir, v)
			}
			if dir == "settle" {
				p.Settle, settleAt = d, &PlanError{File: name, Line: line, Col: cols[0]}
			} else {
				p.FaultsUntil = d
			}
		case "faults":
			given := map[string]bool{}
			for i, a := range args {
				k, v, ok := strings.Cut(a, "=")
				if !ok {
					return nil, errAt(argCols[i], "faults: %q is not name=value", a)
				}
				if given[k] {
					return nil, errAt(argCols[i], "faults: %s given twice", k)
				}
				given[k] = true
				if err := p.Faults.Set(k, v); err != nil {
					return nil, errAt(argCols[i], "faults: %v", err)
				}
			}
		case "set":
			for i, a := range args {
				k, v, ok := strings.Cut(a, "=")
				if !ok || k == "" {
					return nil, errAt(argCols[i], "set: %q is not name=value", a)
				}
				if first, dup := p.paramPos[k]; dup {
					return nil, errAt(argCols[i], "set: parameter %s given twice (first at line %d)", k, first.line)
				}
				p.Params[k] = v
				p.paramPos[k] = planPos{line, argCols[i]}
			}
		default:
			kind, ok := sim.ParseChoiceKind(dir)
			if !ok || !kind.IsFault() {
				// The word is not echoed: a file that is not a plan (a
				// password file named by mistake) must not be printed.
				return nil, errAt(cols[0], "not a plan directive (want scenario, file, semantics, ops, seed, faults, set, max-events, max-time, or a fault: %s)", strings.Join(sim.FaultChoiceNames(), ", "))
			}
			f, err := parseFaultLine(kind, cols[0], args, argCols, errAt)
			if err != nil {
				return nil, err
			}
			f.Line, f.Col = line, cols[0]
			p.Schedule = append(p.Schedule, f)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &PlanError{File: name, Line: line + 1, Col: 1, Msg: "line longer than 1 MiB"}
		}
		return nil, &PlanError{File: name, Line: line + 1, Col: 1, Msg: err.Error()}
	}
	if p.Scenario == "" && p.File == "" {
		return nil, &PlanError{File: name, Line: max(line, 1), Col: 1, Msg: "the plan names no scenario (want a line: scenario NAME)"}
	}
	if p.Semantics == 0 {
		return nil, &PlanError{File: name, Line: max(line, 1), Col: 1, Msg: "the plan names no semantics (want a line: semantics amo|alo|idem|txn)"}
	}
	if settleAt != nil && p.FaultsUntil == 0 {
		settleAt.Msg = "settle bounds the run after its faults stop: give faults-until too"
		return nil, settleAt
	}
	return p, nil
}

func parseFaultLine(kind sim.ChoiceKind, kindCol int, args []string, cols []int, errAt func(int, string, ...any) error) (PlanFault, error) {
	f := PlanFault{Kind: kind, Occurrence: 1, cols: map[string]int{}}
	for i, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || v == "" {
			return f, errAt(cols[i], "%s: %q is not name=value", kind, a)
		}
		if _, dup := f.cols[k]; dup {
			return f, errAt(cols[i], "%s: %s= given twice", kind, k)
		}
		if k == "from" || k == "node" {
			other := "from" // the sender: from= and node= are one field
			if k == "from" {
				other = "node"
			}
			if _, dup := f.cols[other]; dup {
				return f, errAt(cols[i], "%s: %s= and %s= both name the same node: give one", kind, other, k)
			}
		}
		f.cols[k] = cols[i] + len(k) + 1
		num := func(lo int) (int, error) {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > math.MaxInt32 {
				return 0, errAt(cols[i]+len(k)+1, "%s: %s=%q is not an integer in [%d, %d]", kind, k, v, lo, math.MaxInt32)
			}
			return n, nil
		}
		var err error
		switch k {
		case "from", "node":
			f.Node = v
		case "to":
			f.Peer = v
		case "msg":
			f.Msg = v
		case "point":
			f.Point = v
		case "op":
			f.Op, err = num(0)
		case "attempt":
			f.Attempt, err = num(0)
		case "occurrence":
			f.Occurrence, err = num(1) // occurrences count from 1
		default:
			return f, errAt(cols[i], "%s: unknown field %q (want from, to, node, msg, point, op, attempt, occurrence)", kind, k)
		}
		if err != nil {
			return f, err
		}
	}
	if f.Node == "" {
		return f, errAt(kindCol, "%s: missing from= (or node=)", kind)
	}
	if kind.AtPoint() && f.Point == "" {
		return f, errAt(kindCol, "%s: missing point=", kind)
	}
	if kind.AtPoint() && f.Peer != "" {
		return f, errAt(f.cols["to"]-len("to="), "%s: a %s has no to= (name the node with node=)", kind, kind)
	}
	if !kind.AtPoint() && f.Point != "" {
		return f, errAt(f.cols["point"]-len("point="), "%s: point= belongs to faults at a crash point only", kind)
	}
	if !kind.AtPoint() && (f.Peer == "" || f.Msg == "") {
		return f, errAt(kindCol, "%s: missing to= or msg=", kind)
	}
	return f, nil
}

// fields splits s on spaces and returns each word's 1-based column.
func fields(s string) ([]string, []int) {
	var words []string
	var cols []int
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\r' {
			if start >= 0 {
				words = append(words, s[start:i])
				cols = append(cols, start+1)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return words, cols
}

// Resolve turns the plan's symbolic faults into engine faults for topo.
func (p *Plan) Resolve(name string, topo *sim.Topology) ([]sim.Fault, error) {
	out := make([]sim.Fault, 0, len(p.Schedule))
	for _, f := range p.Schedule {
		col := func(field string) int {
			if c, ok := f.cols[field]; ok {
				return c
			}
			return f.Col
		}
		errAt := func(field, format string, args ...any) error {
			return &PlanError{File: name, Line: f.Line, Col: col(field), Msg: fmt.Sprintf(format, args...)}
		}
		sf := sim.Fault{Kind: f.Kind, Op: sim.OpID(f.Op), Attempt: int32(f.Attempt), Occurrence: int32(f.Occurrence), Value: 1, Peer: sim.NoNode}
		field := "from"
		if _, ok := f.cols["node"]; ok {
			field = "node"
		}
		n, ok := topo.NodeByName(f.Node)
		if !ok {
			return nil, errAt(field, "unknown node %q (this scenario has: %s)", f.Node, strings.Join(nodeNames(topo), ", "))
		}
		sf.Node = n
		if f.Peer != "" {
			n, ok := topo.NodeByName(f.Peer)
			if !ok {
				return nil, errAt("to", "unknown node %q (this scenario has: %s)", f.Peer, strings.Join(nodeNames(topo), ", "))
			}
			sf.Peer = n
		}
		if f.Msg != "" {
			k, ok := topo.MessageByName(f.Msg)
			if !ok {
				return nil, errAt("msg", "unknown message kind %q", f.Msg)
			}
			sf.Msg = k
		}
		if f.Point != "" {
			pt, ok := topo.PointByName(f.Point)
			if !ok {
				return nil, errAt("point", "unknown crash point %q", f.Point)
			}
			sf.Point = pt
		}
		out = append(out, sf)
	}
	return out, nil
}

func nodeNames(topo *sim.Topology) []string {
	out := make([]string, len(topo.Nodes))
	for i := range topo.Nodes {
		out[i] = topo.Nodes[i].Name
	}
	return out
}

// FaultLine formats one engine fault as a plan line (see
// sim.Topology.FaultLine).
func FaultLine(topo *sim.Topology, f sim.Fault) string { return topo.FaultLine(f) }

// WritePlan writes p with its faults already resolved against topo, in one
// write; a plan longer than MaxPlanFileBytes (which ParsePlan would
// refuse) is an error, and nothing is written.
func WritePlan(w io.Writer, p *Plan, topo *sim.Topology, faults []sim.Fault) error {
	var b strings.Builder
	b.WriteString("# once fault plan — replay with: once replay FILE\n")
	if p.File != "" && p.FileHash != "" {
		fmt.Fprintf(&b, "file %s %s\n", p.File, p.FileHash)
	} else if p.File != "" {
		fmt.Fprintf(&b, "file %s\n", p.File)
	} else {
		fmt.Fprintf(&b, "scenario %s\n", p.Scenario)
	}
	fmt.Fprintf(&b, "semantics %s\n", p.Semantics)
	if p.Ops > 0 {
		fmt.Fprintf(&b, "ops %d\n", p.Ops)
	}
	if p.Jitter {
		fmt.Fprintf(&b, "seed %d\n", p.Seed)
	} else {
		b.WriteString("# no seed: no jitter (every delay at its base value)\n")
	}
	b.WriteString("faults")
	for k := range sim.FaultKinds {
		spec := &sim.FaultKinds[k]
		fmt.Fprintf(&b, " %s=%s", spec.Name, ffmt(p.Faults.Probability[k]))
		if d := spec.Duration; d != nil && p.Faults.Duration[k] != 0 {
			fmt.Fprintf(&b, " %s=%d", d.Name, p.Faults.Duration[k])
		}
	}
	b.WriteString("\n")
	if len(p.Params) > 0 {
		keys := make([]string, 0, len(p.Params))
		for k := range p.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("set")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%s", k, p.Params[k])
		}
		b.WriteString("\n")
	}
	for _, bu := range (Settings{MaxEvents: p.MaxEvents, MaxTime: p.MaxTime, FaultsUntil: p.FaultsUntil, Settle: p.Settle}).Budgets() {
		fmt.Fprintf(&b, "%s %s\n", bu.Name, bu.Value)
	}
	fmt.Fprintf(&b, "# %d fault(s)\n", len(faults))
	for _, fl := range faults {
		b.WriteString(FaultLine(topo, fl))
		b.WriteString("\n")
	}
	if b.Len() > MaxPlanFileBytes {
		return fmt.Errorf("scenarios: the plan of %d fault(s) takes %d bytes, above the limit of %s that replay reads; nothing written", len(faults), b.Len(), sizeText(MaxPlanFileBytes))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FileHash is the hash a plan carries of its scenario file's bytes.
func FileHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func validFileHash(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

func ffmt(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
