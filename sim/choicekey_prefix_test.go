package sim

import "testing"

// TestChoiceKeyPrefixTable: the key of a choice is the same read through
// a small topology's prefix table as folded from the names, for every
// kind, node, peer (NoNode and out of range included), message kind (out
// of range included) and crash point; a topology too large for the table
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
				}
			}
		}
	}
	big := &Topology{Nodes: make([]NodeSpec, 40), Messages: make([]string, 10)}
	if newNameKeys(big).prefixes != nil {
		t.Error("a 40-node topology got a prefix table")
	}
}
