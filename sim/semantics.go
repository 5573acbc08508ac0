package sim

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/internal/usererr"
)

// Semantics is a delivery-semantics preset that every scenario runs under.
type Semantics uint8

// The four semantics of the course.
const (
	AtMostOnce    Semantics = iota + 1 // send once, commit before processing
	AtLeastOnce                        // retry and redeliver until acknowledged
	Idempotent                         // at-least-once plus a durable dedup by operation ID
	Transactional                      // atomic commit inside a named boundary (Kafka/Flink style)
)

var semanticsNames = [...][2]string{
	{"", ""},
	{"at-most-once", "amo"},
	{"at-least-once", "alo"},
	{"at-least-once+idempotent", "idem"},
	{"transactional", "txn"},
}

// AllSemantics lists the semantics in presentation order.
var AllSemantics = []Semantics{AtMostOnce, AtLeastOnce, Idempotent, Transactional}

// String returns the long id, e.g. "at-least-once+idempotent".
func (s Semantics) String() string {
	if int(s) < len(semanticsNames) {
		return semanticsNames[s][0]
	}
	return "unknown"
}

// Alias returns the short id, e.g. "idem".
func (s Semantics) Alias() string {
	if int(s) < len(semanticsNames) {
		return semanticsNames[s][1]
	}
	return "unknown"
}

// ParseSemantics accepts a long id or its alias.
func ParseSemantics(v string) (Semantics, error) {
	v = strings.TrimSpace(strings.ToLower(v))
	for i, n := range semanticsNames {
		if i > 0 && (v == n[0] || v == n[1]) {
			return Semantics(i), nil
		}
	}
	const want = "at-most-once|amo, at-least-once|alo, at-least-once+idempotent|idem, transactional|txn"
	return 0, usererr.New("unknown_semantics", map[string]any{"Value": v, "Want": want}, fmt.Sprintf("unknown semantics %q (want %s)", v, want))
}

// Promise is what a semantics promises per operation ID.
type Promise uint8

// The promises.
const (
	AtMostOne  Promise = iota + 1 // effects ≤ 1: may lose, never duplicates
	AtLeastOne                    // effects ≥ 1 once the run finishes
	ExactlyOne                    // effects = 1, and at most one distinct outcome
)

// Promise returns the promise of s.
func (s Semantics) Promise() Promise {
	switch s {
	case AtMostOnce:
		return AtMostOne
	case AtLeastOnce:
		return AtLeastOne
	default:
		return ExactlyOne
	}
}

// String returns "≤1", "≥1" or "=1".
func (p Promise) String() string {
	switch p {
	case AtMostOne:
		return "≤1"
	case AtLeastOne:
		return "≥1"
	case ExactlyOne:
		return "=1"
	}
	return "?"
}
