package sim

import "sync"

// Node is the behaviour of one role: a pure state machine. It keeps no
// state of its own — everything it must remember lives in the tables its
// Context hands out — and it never sleeps, spawns goroutines, reads the
// clock or draws random numbers. The engine calls it; it answers through
// the Context and returns.
type Node interface {
	// Start runs when the node boots and again after every restart, when
	// only its durable tables are left.
	Start(ctx *Context)
	// Receive handles one delivered message.
	Receive(ctx *Context, m Message)
	// Timer handles a timer the node set in its current incarnation.
	Timer(ctx *Context, t Timer)
}

// Timer is the payload of a timer: which kind, for which operation. Like
// Message's, the slots after Op are generic and each role names them in a
// typed view.
type Timer struct {
	Kind    TimerKind
	Op      OpID
	Attempt int32 // 1-based attempt the timer is for (0: none)
	Key     int64 // the row or run the timer is for (0: none)
	Phase   int32 // the phase of that attempt, e.g. a step of a multi-step operation (0: none)
}

// TableSpec declares one table of a node.
type TableSpec struct {
	Name    string
	Durable bool     // survives a crash; a volatile table is emptied by one
	Traced  bool     // reads and writes appear in the trace (key and dedup stores)
	States  []string // names of Record.State values, for reports
	// AgeFree declares that the role never reads the time its rows were
	// written (Record.At): no TTL, no ordering by age. Such a table does not
	// keep that time at all — Context.Put stores, and the trace shows, every
	// row with At = 0 — so no role, invariant, metric or checker can observe
	// it, and the explorer's fingerprint has no age to tell states apart by
	// (see World.AppendState). A role that declared it and still read At
	// would read 0 and behave differently from the same role without the
	// declaration: TestAgeFreeTablesAreNotRead runs the catalog both ways.
	AgeFree bool
}

// NodeSpec declares one node of a topology.
type NodeSpec struct {
	Name             string
	Tables           []TableSpec
	Crashable        bool    // crash points of this node are choices
	CrashProbability float64 // probability of crashing at each crash point
	RestartAfter     Time    // downtime before a crashed node restarts
	PauseProbability float64 // probability of pausing at each crash point (crashable nodes only)
	PauseFor         Time    // how long a pause freezes the node
	// Store marks a store node (a database, a key store, a lock service):
	// each delivery to it is one atomic store operation, and a zero-delay
	// exchange with it runs before anything else queued at that instant,
	// so a handler's store steps run back to back unless a preemption is
	// chosen (docs/concurrency.md).
	Store              bool
	PreemptProbability float64 // probability that a reply of this store is held back (random runs)
	PreemptFor         Time    // how long a held-back reply waits
}

// Topology names everything in a world, so the trace can be rendered
// without asking any node. The numbers of kinds are local to a build; their
// names are what digests, fingerprints and random decisions see (names.go).
// A topology is read-only once a world has been built from it.
type Topology struct {
	Nodes    []NodeSpec
	Messages []string // MsgKind → name
	Timers   []string // TimerKind → name
	Sinks    []string // SinkID → name
	Points   []string // PointID → crash point name
	// Kinds are the fault, choice and event kinds the world and its
	// renderers name; nil means the built-in ones (Builtin).
	Kinds *Registry

	keysOnce sync.Once
	nameKeys *nameKeys // the key of every name, computed on first use
}

// Clone returns a copy of t: its nodes, names and kinds, with a name-key
// cache of its own. The copy shares t's slices: a caller that changes one
// replaces it (append to a clipped slice, or copy the nodes).
func (t *Topology) Clone() *Topology {
	return &Topology{Nodes: t.Nodes, Messages: t.Messages, Timers: t.Timers, Sinks: t.Sinks, Points: t.Points, Kinds: t.Kinds}
}

// Registry returns the kinds t names: its Kinds, or the built-in ones.
func (t *Topology) Registry() *Registry {
	if t == nil {
		return builtin
	}
	return t.Kinds.or()
}

func nameAt(names []string, i int) string {
	if i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return "#" + itoa(i)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// NodeName returns the name of node id.
func (t *Topology) NodeName(id NodeID) string {
	if int(id) < len(t.Nodes) {
		return t.Nodes[id].Name
	}
	return "#" + itoa(int(id))
}

// MessageName returns the name of message kind k.
func (t *Topology) MessageName(k MsgKind) string { return nameAt(t.Messages, int(k)) }

// TimerName returns the name of timer kind k.
func (t *Topology) TimerName(k TimerKind) string { return nameAt(t.Timers, int(k)) }

// SinkName returns the name of sink s.
func (t *Topology) SinkName(s SinkID) string { return nameAt(t.Sinks, int(s)) }

// PointName returns the name of crash point p.
func (t *Topology) PointName(p PointID) string { return nameAt(t.Points, int(p)) }

// TableName returns the name of table id of node n.
func (t *Topology) TableName(n NodeID, id TableID) string {
	if int(n) < len(t.Nodes) && int(id) < len(t.Nodes[n].Tables) {
		return t.Nodes[n].Tables[id].Name
	}
	return "#" + itoa(int(id))
}

// NodeByName returns the id of the node called name.
func (t *Topology) NodeByName(name string) (NodeID, bool) {
	for i := range t.Nodes {
		if t.Nodes[i].Name == name {
			return NodeID(i), true
		}
	}
	return 0, false
}

func indexOf(names []string, name string) (int, bool) {
	for i, n := range names {
		if n == name && n != "" {
			return i, true
		}
	}
	return 0, false
}

// MessageByName returns the kind called name.
func (t *Topology) MessageByName(name string) (MsgKind, bool) {
	i, ok := indexOf(t.Messages, name)
	return MsgKind(i), ok
}

// PointByName returns the crash point called name.
func (t *Topology) PointByName(name string) (PointID, bool) {
	i, ok := indexOf(t.Points, name)
	return PointID(i), ok
}
