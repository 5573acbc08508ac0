package sim

import (
	"fmt"
	"strings"
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
	return 0, &UnknownSemanticsError{Value: v, Want: want}
}

// UnknownSemanticsError is a semantics name that names none. It words
// itself for a translation by its message id and fields (the front end's
// usererr.Worded), so the engine imports the standard library only.
type UnknownSemanticsError struct {
	Value, Want string
}

func (e *UnknownSemanticsError) Error() string {
	return fmt.Sprintf("unknown semantics %q (want %s)", e.Value, e.Want)
}

// MessageID names the message that words the error in other languages.
func (e *UnknownSemanticsError) MessageID() string { return "unknown_semantics" }

// MessageData holds the fields that message names.
func (e *UnknownSemanticsError) MessageData() map[string]any {
	return map[string]any{"Value": e.Value, "Want": e.Want}
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
