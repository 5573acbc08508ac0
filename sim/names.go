package sim

// Names, not numbers. Message, timer, sink and crash-point kinds are
// numbered by the order in which a program registers them (a catalog of
// roles, built one way in one program, another way in a test): a detail
// of the build. Everything that leaves a run —
// the trace digest, the state fingerprint, the key of a random decision —
// therefore uses the 64-bit key of a kind's name instead of its number. The
// keys are computed once per topology, so the hot path hashes no string.

// NameKey is the stable 64-bit key of a name: FNV-1a over its bytes,
// finished with splitmix so that short names spread over all 64 bits.
func NameKey(name string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 0x100000001b3
	}
	return splitmix(h)
}

// unnamedKey is the key of a number that has no name (an empty name, or a
// number past the end of the list): the number is then all the identity
// there is. Engine tests and benchmarks leave kinds unnamed; scenarios name
// every kind they register.
func unnamedKey(i int) uint64 { return splitmix(uint64(i) ^ 0x756e6e616d6564) }

// nameKeys holds the key of every name of a topology, by number.
type nameKeys struct {
	nodes    []uint64
	messages []uint64
	timers   []uint64
	sinks    []uint64
	points   []uint64
	tables   [][]uint64 // by node, then table
	choices  []uint64   // by choice kind, from the topology's registry
	// prefixes holds, for a topology of a few nodes, the running hash of
	// a choice's kind, node and peer (choiceKey's first folds), indexed by
	// prefixIndex: a seeded run asks two choices per send, and these folds
	// are most of their key. The message kind is folded on top: a
	// scenario family registers dozens of kinds, too many to tabulate.
	prefixes []uint64
}

// maxPrefixes bounds the prefix table of one topology (16 KiB, up to 14
// nodes): a matrix builds a topology per row.
const maxPrefixes = 2048

// prefixIndex returns where c's prefix is in k.prefixes, or -1 when the
// table is absent or c names something outside it.
func (k *nameKeys) prefixIndex(c *Choice) int {
	n := len(k.nodes)
	peer := int(c.Peer)
	switch {
	case c.Peer == NoNode:
		peer = n // the last peer slot
	case peer >= n:
		return -1
	}
	if k.prefixes == nil || int(c.Kind) >= len(k.choices) || int(c.Node) >= n {
		return -1
	}
	return (int(c.Kind)*n+int(c.Node))*(n+1) + peer
}

// fillPrefixes computes the prefix table when it is small enough.
func (k *nameKeys) fillPrefixes() {
	n := len(k.nodes)
	size := len(k.choices) * n * (n + 1)
	if size > maxPrefixes {
		return
	}
	k.prefixes = make([]uint64, size)
	for kind := range len(k.choices) {
		for node := range n {
			for peer := 0; peer <= n; peer++ {
				c := Choice{Kind: ChoiceKind(kind), Node: NodeID(node), Peer: NodeID(peer)}
				if peer == n {
					c.Peer = NoNode
				}
				k.prefixes[k.prefixIndex(&c)] = k.nodePrefix(&c)
			}
		}
	}
}

func keysOf(names []string) []uint64 {
	keys := make([]uint64, len(names))
	for i := range names {
		keys[i] = keyOfName(names[i], i)
	}
	return keys
}

// keyOfName returns the key of name, or of number i if name is empty.
func keyOfName(name string, i int) uint64 {
	if name == "" {
		return unnamedKey(i)
	}
	return NameKey(name)
}

func newNameKeys(t *Topology) *nameKeys {
	k := &nameKeys{
		nodes:    make([]uint64, len(t.Nodes)),
		messages: keysOf(t.Messages),
		timers:   keysOf(t.Timers),
		sinks:    keysOf(t.Sinks),
		points:   keysOf(t.Points),
		tables:   make([][]uint64, len(t.Nodes)),
	}
	kinds := t.Registry()
	k.choices = make([]uint64, kinds.NumChoiceKinds())
	for c := range k.choices {
		k.choices[c] = NameKey(kinds.ChoiceName(ChoiceKind(c)))
	}
	for i := range t.Nodes {
		k.nodes[i] = keyOfName(t.Nodes[i].Name, i)
		k.tables[i] = make([]uint64, len(t.Nodes[i].Tables))
		for j, tb := range t.Nodes[i].Tables {
			k.tables[i][j] = keyOfName(tb.Name, j)
		}
	}
	k.fillPrefixes()
	return k
}

// keyAt returns keys[i], or the key of an unnamed number out of range.
func keyAt(keys []uint64, i int) uint64 {
	if i >= 0 && i < len(keys) {
		return keys[i]
	}
	return unnamedKey(i)
}

// keys returns the name keys of t, computed on first use. A topology must
// not change once a world has been built from it.
func (t *Topology) keys() *nameKeys {
	t.keysOnce.Do(func() { t.nameKeys = newNameKeys(t) })
	return t.nameKeys
}

// NodeKey returns the key of node id's name.
func (t *Topology) NodeKey(id NodeID) uint64 { return keyAt(t.keys().nodes, int(id)) }

// MessageKey returns the key of message kind k's name.
func (t *Topology) MessageKey(k MsgKind) uint64 { return keyAt(t.keys().messages, int(k)) }

// TimerKey returns the key of timer kind k's name.
func (t *Topology) TimerKey(k TimerKind) uint64 { return keyAt(t.keys().timers, int(k)) }

// SinkKey returns the key of sink s's name.
func (t *Topology) SinkKey(s SinkID) uint64 { return keyAt(t.keys().sinks, int(s)) }

// PointKey returns the key of crash point p's name.
func (t *Topology) PointKey(p PointID) uint64 { return keyAt(t.keys().points, int(p)) }

// TableKey returns the key of the name of table id of node n.
func (t *Topology) TableKey(n NodeID, id TableID) uint64 {
	k := t.keys()
	if int(n) < len(k.tables) {
		return keyAt(k.tables[n], int(id))
	}
	return unnamedKey(int(id))
}

// ChoiceKey returns the stable key of c's identity: the names of its kind,
// nodes, message kind and crash point, its operation, attempt and copy.
// Everything but the occurrence: two choices with the same key are the
// same decision asked again. The world stamps it into Choice.Key.
func (t *Topology) ChoiceKey(c *Choice) uint64 { return t.keys().choiceKey(c) }

// choiceKey is ChoiceKey over the keys of a topology's names.
func (k *nameKeys) choiceKey(c *Choice) uint64 {
	var h uint64
	if i := k.prefixIndex(c); i >= 0 {
		h = k.prefixes[i]
	} else {
		h = k.nodePrefix(c)
	}
	if c.Msg != 0 {
		h = foldKey(h, keyAt(k.messages, int(c.Msg)))
	}
	if c.Kind.AtPoint() {
		h = foldKey(h, keyAt(k.points, int(c.Point)))
	}
	// Op and Attempt are added, not or-ed (the same bits: they do not
	// overlap): or-ed, the compiler reads the two as one 8-byte load,
	// which stalls on the two 4-byte stores that built the choice.
	h = foldKey(h, (uint64(uint32(c.Op))+uint64(uint32(c.Attempt))<<32)|uint64(c.Copy)<<63)
	return splitmix(h)
}

// nodePrefix is the running hash of c's kind, node and peer.
func (k *nameKeys) nodePrefix(c *Choice) uint64 {
	// The key of the kind's name ("loss", "crash"…), so a decision's key
	// does not depend on the kinds' numbering.
	ck := unknownChoiceKey
	if int(c.Kind) < len(k.choices) {
		ck = k.choices[c.Kind]
	}
	h := foldKey(ck, keyAt(k.nodes, int(c.Node)))
	if c.Peer != NoNode {
		h = foldKey(h, keyAt(k.nodes, int(c.Peer)))
	}
	return h
}

// foldKey folds w into the running hash h (multiply and xor-shift, as the
// digest does): order-sensitive and cheap; finish with splitmix.
func foldKey(h, w uint64) uint64 {
	h = (h ^ w) * 0xff51afd7ed558ccd
	return h ^ h>>29
}

// unknownChoiceKey is the key of a choice kind the topology's registry
// lacks (as ChoiceKind.String names it).
var unknownChoiceKey = NameKey("unknown")
