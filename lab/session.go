package lab

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/oncesim/once/explore"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/scenarios/roles/queue"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

// DefaultStepTimeout is how long a node may take to answer one event.
const DefaultStepTimeout = 5 * time.Second

// Lab is a scenario with some of its nodes played by external processes.
// It is the input of every run, replay and search; each run gets a
// Session of fresh processes.
type Lab struct {
	Scenario *scenarios.Scenario
	Settings scenarios.Settings
	Seed     uint64              // handed to every process in init
	Commands map[string][]string // node name → argv
	Dir      string              // working directory of the processes ("" = this one)
	// StepTimeout bounds, in wall-clock time, each read of a node's answer;
	// 0 = DefaultStepTimeout.
	StepTimeout time.Duration
	// StartAllowance is added to StepTimeout for a process's first answer
	// (its start-up); 0 = DefaultStartAllowance, < 0 = none.
	StartAllowance time.Duration
	// Twice hands every delivery to the lab nodes twice in a row (the
	// idempotence check): a handler that is not idempotent shows as a
	// duplicated effect.
	Twice bool
	// Logs, if set, receives each incarnation's stderr when it ends.
	Logs io.Writer
	// Replicas is how many processes play each lab node, sharing its
	// stores (0: DefaultReplicas). With more than one, the explorer and
	// random runs may preempt a replica at a store answer.
	Replicas int
	// NoReset: never reuse a process that declares reset (an explore
	// starts fresh ones for every schedule and restart).
	NoReset bool
	// MaxMemory bounds what one run holds (its transcript: every line
	// handed and answered), in bytes; 0 = search.DefaultMaxMemory.
	// An explore gives each schedule a share of its own budget.
	MaxMemory int64
	// OnSpawn, if set, is told (from --explore's workers: it must be safe
	// for concurrent use) the pid (= process group) of every process
	// started: tests check that none survives.
	OnSpawn func(pid int)

	logMu sync.Mutex // --explore closes sessions side by side
}

// SetMaxMemory sets MaxMemory from a size such as 512MiB or 2GiB (capped
// by the address-space limit, ulimit -v, as explore's).
func (l *Lab) SetMaxMemory(size string) error {
	n, err := explore.ParseBytes(size)
	if err != nil {
		return err
	}
	l.MaxMemory, _ = explore.MemoryBudget(n)
	return nil
}

// maxMemory is the budget of --max-memory.
func (l *Lab) maxMemory() int64 {
	if l.MaxMemory > 0 {
		return l.MaxMemory
	}
	return search.DefaultMaxMemory
}

// MemoryError is a run cut because what it holds passed its budget.
type MemoryError struct {
	Limit int64  // the run's budget
	Of    string // where it comes from
	Held  int64  // what it held when cut
	Steps int    // the transcript's steps by then
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the run's transcript held %s after %d steps, past its budget of %s (%s): the node answers without end?",
		search.FormatBytes(e.Held), e.Steps, search.FormatBytes(e.Limit), e.Of)
}

// MaxReplicas bounds --replicas: each replica is a process per run.
const MaxReplicas = 8

// ReplicaCount is how many processes play each lab node.
func (l *Lab) ReplicaCount() int { return l.replicas() }

// replicas is how many processes play a node.
func (l *Lab) replicas() int {
	if l.Replicas > 0 {
		return l.Replicas
	}
	return l.DefaultReplicas()
}

// DefaultReplicas is what the scenario needs: 2 when its lesson is a race
// (its explore bound allows preemptions: a double click reaches two
// instances behind a balancer), 1 otherwise.
func (l *Lab) DefaultReplicas() int {
	if l.Scenario.ExploreDefaults.MaxPreemptions > 0 {
		return 2
	}
	return 1
}

// Preemptible reports whether a run of the lab has anything to preempt:
// more than one replica, whose store answers can be held back.
func (l *Lab) Preemptible() bool { return l.replicas() > 1 }

// DefaultStartAllowance is the start-up a process's first answer may
// add to the step timeout.
const DefaultStartAllowance = 30 * time.Second

func (l *Lab) startAllowance() time.Duration {
	switch {
	case l.StartAllowance < 0:
		return 0
	case l.StartAllowance == 0:
		return DefaultStartAllowance
	}
	return l.StartAllowance
}

func (l *Lab) stepTimeout() time.Duration {
	if l.StepTimeout > 0 {
		return l.StepTimeout
	}
	return DefaultStepTimeout
}

// ParseCommand splits a --node value NAME=CMD into the node name and the
// argv (split on spaces; no shell is involved).
func ParseCommand(s string) (string, []string, error) {
	name, cmd, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, fmt.Errorf("--node %q: want NAME=COMMAND, e.g. service=\"python3 service.py\"", s)
	}
	argv := strings.Fields(cmd)
	if len(argv) == 0 {
		return "", nil, fmt.Errorf("--node %s: the command is empty", name)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return "", nil, fmt.Errorf("--node %s: cannot run %q: %v", name, argv[0], unwrapExec(err))
	}
	argv[0] = resolveShim(path)
	return name, argv, nil
}

// resolveShim replaces a version manager's Python shim (pyenv's
// ~/.pyenv/shims/python3: a shell script that runs `pyenv exec`, ~0.1 s
// per start, paid again by every process an explore starts) by the
// interpreter it selects here, asked once. Anything else, or a shim that
// does not answer within 10 s, is kept as it is.
func resolveShim(path string) string {
	if filepath.Base(filepath.Dir(path)) != "shims" || !strings.HasPrefix(filepath.Base(path), "python") {
		return path
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return path
	}
	exe := strings.TrimSpace(string(out))
	if st, err := os.Stat(exe); err != nil || st.IsDir() || st.Mode()&0o111 == 0 || !filepath.IsAbs(exe) {
		return path
	}
	return exe
}

func unwrapExec(err error) error {
	if ee, ok := err.(*exec.Error); ok {
		return ee.Err
	}
	return err
}

// Validate checks the lab against its scenario: every --node names a node
// whose role a lab node may play.
func (l *Lab) Validate() error {
	if len(l.Commands) == 0 {
		return fmt.Errorf("no --node given: say which node your program plays, e.g. --node service=\"python3 service.py\"")
	}
	set := l.Settings
	if len(l.Scenario.Semantics) > 0 && !l.Scenario.Supports(set.Semantics) {
		set.Semantics = l.Scenario.Semantics[0] // the nodes are the same under every semantics
	}
	cfg, err := l.Scenario.Config(set)
	if err != nil {
		return err
	}
	for _, name := range l.nodeNames() {
		id, ok := cfg.Topology.NodeByName(name)
		if !ok {
			return fmt.Errorf("--node %s: scenario %s has no node %s (its nodes: %s)", name, l.Scenario.Name, name, nodeList(cfg.Topology))
		}
		role := roleName(cfg.Nodes[id])
		if _, ok := lookupPlayable(role); !ok {
			return fmt.Errorf("--node %s: a lab node cannot play role %s (playable roles: %s)", name, roleOrUnknown(role), PlayableRoles())
		}
	}
	return nil
}

func roleOrUnknown(r string) string {
	if r == "" {
		return "of this node"
	}
	return r
}

// nodeNames returns the played node names, sorted.
func (l *Lab) nodeNames() []string {
	names := make([]string, 0, len(l.Commands))
	for n := range l.Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// roleName names the catalog role of a built-in node, "" if it is not
// one a lab node may play.
func roleName(n sim.Node) string {
	switch n.(type) {
	case *payments.PaymentService, *payments.CheckedService:
		return "payment-service" // the checked one keeps its keys in a store node; yours keeps them in durable
	case *queue.Consumer:
		return "consumer"
	}
	return ""
}

func nodeList(t *sim.Topology) string {
	names := make([]string, len(t.Nodes))
	for i := range t.Nodes {
		names[i] = t.Nodes[i].Name
	}
	return strings.Join(names, ", ")
}

func joinSorted(names []string) string {
	c := append([]string(nil), names...)
	sort.Strings(c)
	return strings.Join(c, ", ")
}

// Session is one run's processes: it builds the config with fresh lab
// nodes and kills every process when it closes.
type Session struct {
	lab        *Lab
	cfg        *sim.Config
	nodes      []*Node
	roles      map[sim.NodeID]string
	err        error
	nextID     int64 // msg_id of the events the harness sends
	transcript transcript
	logs       []string

	memLimit int64  // what the run's transcript may hold
	memOf    string // where the limit comes from, for its error
	stall    *Stall // the run made no progress (stall.go): it ends
	retries  map[retryKey]*retryState
	span     sim.Time

	// pool, if set, holds reset processes: a start takes one before it
	// spawns, and the end of the run resets and keeps its processes.
	pool *pool

	resumeTimer sim.TimerKind // the harness's own timer: a held store answer is handed over
	preemptP    float64       // the preempt probability (0: never asked)
	preemptFor  sim.Time      // how long a held answer waits
	replyBase   sim.MsgKind   // the store answers' message kinds, in storeReplies order
	pointBase   sim.PointID   // the lab's crash points, in labPoints order
}

// storeReplies name the store's answers as message kinds of a lab
// session's topology, so a preemption's plan line names the answer held.
var storeReplies = []string{"read_ok", "write_ok", "insert_ok", "insert_if_absent_ok", "update_ok",
	"compare_and_set_ok", "set_nx_px_ok", "delete_ok", "list_ok"}

// preemptible reports whether store answers may be held back in this run.
func (s *Session) preemptible() bool { return s.preemptP > 0 && s.lab.replicas() > 1 }

// replyKind is the message kind of a store answer type.
func (s *Session) replyKind(t string) sim.MsgKind {
	return s.replyBase + sim.MsgKind(slices.Index(storeReplies, t))
}

// point is the number of the lab's crash point p (pointReceive…) in the
// session's topology.
func (s *Session) point(p int) sim.PointID { return s.pointBase + sim.PointID(p) }

// NewSession builds a config for semantics sem with the lab's nodes played
// by processes (started when the world starts them). Close it.
func (l *Lab) NewSession(sem sim.Semantics) (*Session, error) {
	set := l.Settings
	set.Semantics = sem
	cfg, err := l.Scenario.Config(set)
	if err != nil {
		return nil, err
	}
	s := &Session{lab: l, cfg: cfg, roles: map[sim.NodeID]string{}, memLimit: l.maxMemory(), memOf: "--max-memory"}
	old := cfg.Topology
	// A copy of the whole topology (its fault registry, Kinds, among the
	// rest), with its own nodes and the lab's crash points added.
	topo := old.Clone()
	topo.Nodes = append([]sim.NodeSpec(nil), old.Nodes...)
	topo.Points = append(slices.Clip(old.Points), labPoints...)
	s.pointBase = sim.PointID(len(old.Points))
	if l.replicas() > 1 {
		topo.Timers = append(slices.Clip(old.Timers), "lab-resume")
		s.resumeTimer = sim.TimerKind(len(topo.Timers) - 1)
		s.replyBase = sim.MsgKind(len(old.Messages))
		topo.Messages = append(slices.Clip(old.Messages), storeReplies...)
		s.preemptP = set.Faults.Probability[sim.FaultPreempt]
		s.preemptFor = set.Faults.DurationOf(sim.FaultPreempt)
	}
	nodes := append([]sim.Node(nil), cfg.Nodes...)
	for _, name := range l.nodeNames() {
		id, ok := topo.NodeByName(name)
		if !ok {
			return nil, fmt.Errorf("--node %s: scenario %s has no node %s", name, l.Scenario.Name, name)
		}
		role := roleName(cfg.Nodes[id])
		p, ok := lookupPlayable(role)
		if !ok {
			return nil, fmt.Errorf("--node %s: a lab node cannot play role %s", name, roleOrUnknown(role))
		}
		s.roles[id] = role
		topo.Nodes[id].Tables = tables
		n := &Node{s: s, name: name, id: id, argv: l.Commands[name], sinks: p.sinks}
		nodes[id] = n
		s.nodes = append(s.nodes, n)
	}
	c := *cfg
	c.Topology = topo
	c.Nodes = nodes
	if l.JudgeFor(sem).Receipts {
		c.Invariants = withInvariant(l.Scenario.Roles(), topo, cfg.Invariants, receiptInvariant)
	}
	s.cfg = &c
	return s, nil
}

// Config is the session's world configuration.
func (s *Session) Config() *sim.Config { return s.cfg }

// Err is the first error of a lab node in this run, nil if none.
func (s *Session) Err() error { return s.err }

// Close kills every process still running and writes their logs.
func (s *Session) Close() {
	for _, n := range s.nodes {
		n.stop(true, nil)
	}
	if s.lab.Logs != nil && len(s.logs) > 0 {
		s.lab.logMu.Lock()
		for _, l := range s.logs {
			io.WriteString(s.lab.Logs, l)
		}
		s.lab.logMu.Unlock()
	}
	s.logs = nil
}

func (s *Session) keepLog(node string, incarnation int, log []byte) {
	if s.lab.Logs == nil || len(log) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- stderr of %s, incarnation %d ---\n", node, incarnation)
	b.Write(log)
	if len(log) > 0 && log[len(log)-1] != '\n' {
		b.WriteByte('\n')
	}
	s.logs = append(s.logs, b.String())
}

func (s *Session) roleOf(id sim.NodeID) string { return s.roles[id] }

func (s *Session) peerNames() string {
	var names []string
	for i := range s.cfg.Topology.Nodes {
		names = append(names, s.cfg.Topology.Nodes[i].Name)
	}
	names = append(names, s.sinks()...)
	return strings.Join(names, ", ")
}

// sinks are the sinks of this scenario, not the catalog's: those it
// observes and those its played nodes write, in that order.
func (s *Session) sinks() []string {
	var out []string
	add := func(name string) {
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, id := range s.cfg.Observe.Sinks {
		if int(id) < len(s.cfg.Topology.Sinks) {
			add(s.cfg.Topology.Sinks[id])
		}
	}
	for _, n := range s.nodes {
		for _, name := range n.sinks {
			add(name)
		}
	}
	return out
}

// Transcript returns what the lab nodes were handed and answered, step by
// step.
func (s *Session) Transcript() []Step { return s.transcript.steps }
