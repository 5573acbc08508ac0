package queue

import "testing"

// Two orders of one basket have one body; the dedup id is the order's.
func TestFifoRelayBodies(t *testing.T) {
	r := &FifoRelay{Basket: 2}
	if r.body(1) != r.body(2) || r.body(2) == r.body(3) {
		t.Fatalf("basket 2: bodies %d %d %d, want orders 1 and 2 alike, 3 different", r.body(1), r.body(2), r.body(3))
	}
	r.Basket = 1
	if r.body(1) == r.body(2) {
		t.Fatalf("basket 1: orders 1 and 2 share body %d", r.body(1))
	}
}
