package sim

import "testing"

// TestChoiceKeyPrefixTable: the key of a choice is the same read through
// a small topology's prefix table as folded from the names (and as the
// fold written out here), for every kind, node, peer (NoNode and out of
// range included), message kind (out of range included) and crash point;
// a few nodes get the table however many message kinds they name (a
// scenario family registers dozens), a topology too large for the table
// has none and folds every key.
func TestChoiceKeyPrefixTable(t *testing.T) {
	topo := &Topology{
		Nodes:    []NodeSpec{{Name: "client"}, {Name: "service"}, {Name: "gateway"}},
		Messages: []string{"", "pay", "pay-response", "charge"},
		Points:   []string{"", "after-charge"},
	}
	k := newNameKeys(topo)
	if k.prefixes == nil {
		t.Fatal("a 3-node topology has no prefix table")
	}
	plain := *k
	plain.prefixes = nil
	peers := []NodeID{0, 1, 2, 3, 9, NoNode}
	for kind := ChoiceKind(0); kind <= ChoicePreempt+1; kind++ {
		for node := NodeID(0); node <= 4; node++ {
			for _, peer := range peers {
				for msg := MsgKind(0); msg <= 5; msg++ {
					c := Choice{Kind: kind, Node: node, Peer: peer, Msg: msg, Point: 1, Op: 7, Attempt: 2, Copy: 1}
					if got, want := k.choiceKey(&c), plain.choiceKey(&c); got != want {
						t.Fatalf("%+v: key %x through the table, %x folded", c, got, want)
					}
					if got, want := k.choiceKey(&c), writtenOutKey(topo, &c); got != want {
						t.Fatalf("%+v: key %x, want %x", c, got, want)
					}
				}
			}
		}
	}
	many := &Topology{Nodes: make([]NodeSpec, 3), Messages: make([]string, 100)}
	if newNameKeys(many).prefixes == nil {
		t.Error("3 nodes with 100 message kinds got no prefix table")
	}
	big := &Topology{Nodes: make([]NodeSpec, 40), Messages: make([]string, 10)}
	if newNameKeys(big).prefixes != nil {
		t.Error("a 40-node topology got a prefix table")
	}
}

// writtenOutKey is the key of c's identity as its definition states it:
// kind, node, peer (unless none), message kind (unless none) and crash
// point (crash and pause only) folded by name, then op, attempt and copy.
func writtenOutKey(t *Topology, c *Choice) uint64 {
	name := func(names []string, i int) uint64 {
		if i < len(names) {
			return keyOfName(names[i], i)
		}
		return unnamedKey(i)
	}
	nodes := make([]string, len(t.Nodes))
	for i := range t.Nodes {
		nodes[i] = t.Nodes[i].Name
	}
	h := foldKey(NameKey(c.Kind.String()), name(nodes, int(c.Node)))
	if c.Peer != NoNode {
		h = foldKey(h, name(nodes, int(c.Peer)))
	}
	if c.Msg != 0 {
		h = foldKey(h, name(t.Messages, int(c.Msg)))
	}
	if c.Kind == ChoiceCrash || c.Kind == ChoicePause {
		h = foldKey(h, name(t.Points, int(c.Point)))
	}
	return splitmix(foldKey(h, uint64(uint32(c.Op))|uint64(uint32(c.Attempt))<<32|uint64(c.Copy)<<63))
}
