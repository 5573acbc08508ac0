package search

import (
	"cmp"
	"slices"

	"github.com/oncesim/once/sim"
)

// Branch is a place where a search took a fault's alternative (or a
// preemption's): the choice kind and what it hit — a message's link
// (Node → Peer), a node's crash point (Node; Peer is NoNode) or a store's
// reply (Node, the store → Peer, the waiting handler). A search that
// counted choice points before it started (scenarios.CountChoicePoints)
// reports after it which of them actually branched: a kind whose choice
// points were never reached within the bounds proved nothing about it.
type Branch struct {
	Kind sim.ChoiceKind `json:"kind"`
	Node sim.NodeID     `json:"node"`
	Peer sim.NodeID     `json:"peer"`
}

// compareBranches orders branches by kind, node, peer.
func compareBranches(a, b Branch) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Node, b.Node), cmp.Compare(a.Peer, b.Peer))
}

// branchSet is the set of places a search branched at, kept sorted. It is
// small (kinds × links and nodes), so an insertion is a binary search.
type branchSet []Branch

// BranchAt is the place choice c hits, as a Branch.
func BranchAt(c *sim.Choice) Branch {
	b := Branch{Kind: c.Kind, Node: c.Node, Peer: c.Peer}
	if c.Kind.AtPoint() {
		b.Peer = sim.NoNode
	}
	return b
}

// add puts the place of c in the set.
func (s *branchSet) add(c *sim.Choice) {
	b := BranchAt(c)
	i, found := slices.BinarySearchFunc(*s, b, compareBranches)
	if !found {
		*s = slices.Insert(*s, i, b)
	}
}

// UnionBranches returns the sorted union of a and b, as a new slice: the
// places two parts (or shards) of one search branched at.
func UnionBranches(a, b []Branch) []Branch {
	out := append(append([]Branch(nil), a...), b...)
	slices.SortFunc(out, compareBranches)
	return slices.Compact(out)
}
