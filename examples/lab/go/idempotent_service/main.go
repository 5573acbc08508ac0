// Command idempotent_service is the idempotent payment service for
// `once lab double-billing --node service=...`. The Idempotency-Key
// protocol, in this order: insert the key as PROCESSING if it is absent,
// in one atomic step (insert_if_absent), or get the row that is there;
// COMPLETED answers the stored response, PROCESSING answers 409; an
// inserted key is durable *before* the gateway is called with that key;
// the response is stored (COMPLETED) when the charge returns, then sent.
// After a crash (incarnation > 1) every key left PROCESSING is claimed (one
// replica per key, with --replicas) and resolved by asking the gateway by
// that key, never by charging again blindly.
// Protocol: docs/lab-protocol.md. Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Record is a row of the harness's store: the key's state, the response
// status, the transaction id (the body's fingerprint while PROCESSING),
// and in Aux the operation while PROCESSING, the body's fingerprint once
// COMPLETED (a key reused with another body is answered 422).
type Record struct {
	State  string `json:"state,omitempty"`
	Status int64  `json:"status,omitempty"`
	Value  int64  `json:"value,omitempty"`
	Aux    int64  `json:"aux,omitempty"`
}

// Body is a message body: every field this node reads or writes.
type Body struct {
	Type         string   `json:"type"`
	MsgID        int64    `json:"msg_id,omitempty"`
	InReplyTo    int64    `json:"in_reply_to,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"` // in the done of init: "reset"
	NodeID       string   `json:"node_id,omitempty"`
	Incarnation  int      `json:"incarnation,omitempty"`
	Op           int64    `json:"op"`
	Attempt      int64    `json:"attempt,omitempty"`
	Key          int64    `json:"key,omitempty"`
	Payload      int64    `json:"payload,omitempty"`
	Value        int64    `json:"value,omitempty"`
	Status       int64    `json:"status,omitempty"`
	Record       *Record  `json:"record,omitempty"`
	Found        bool     `json:"found,omitempty"`
	Inserted     bool     `json:"inserted,omitempty"`
	Swapped      bool     `json:"swapped,omitempty"`
	Expected     *Record  `json:"expected,omitempty"`
	Keys         []int64  `json:"keys,omitempty"`
}

// Msg is one line: Maelstrom's envelope.
type Msg struct {
	Src  string `json:"src"`
	Dest string `json:"dest"`
	Body Body   `json:"body"`
}

// resetCapable: declare the optional reset capability
// (docs/lab-protocol.md, section 6b) unless run with --no-reset.
var resetCapable = len(os.Args) < 2 || os.Args[1] != "--no-reset"

var (
	me     string
	nextID int64
	in     = bufio.NewScanner(os.Stdin)
	out    = json.NewEncoder(os.Stdout)
)

func send(dest string, b Body) {
	if err := out.Encode(Msg{Src: me, Dest: dest, Body: b}); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}

func read() Msg {
	if !in.Scan() {
		os.Exit(0) // the harness closed stdin
	}
	var m Msg
	if err := json.Unmarshal(in.Bytes(), &m); err != nil {
		fmt.Fprintln(os.Stderr, "bad line:", err)
		os.Exit(1)
	}
	return m
}

// call is a request to a store; its answer is the next line.
func call(store string, b Body) Body {
	nextID++
	b.MsgID = nextID
	send(store, b)
	return read().Body
}

func lookup(key, op int64) (Record, bool) {
	r := call("durable", Body{Type: "read", Key: key, Op: op})
	if !r.Found || r.Record == nil {
		return Record{}, false
	}
	return *r.Record, true
}

func store(key, op int64, r Record) {
	call("durable", Body{Type: "write", Key: key, Op: op, Record: &r})
}

func reply(b Body, status, value int64) {
	send("client", Body{Type: "pay-response", Op: b.Op, Attempt: b.Attempt, Status: status, Value: value})
}

func charge(op, attempt, key, payload int64) {
	send("gateway", Body{Type: "charge", Op: op, Attempt: attempt, Key: key, Payload: payload})
}

func pay(b Body) {
	if b.Key == 0 { // no Idempotency-Key (the at-least-once client): nothing to dedup by
		charge(b.Op, b.Attempt, 0, b.Payload)
		return
	}
	// One atomic step creates the key's row, or returns the row that is
	// there: no other request can slip between a check and an insert.
	won := call("durable", Body{Type: "insert_if_absent", Key: b.Key, Op: b.Op,
		Record: &Record{State: "PROCESSING", Value: b.Payload, Aux: b.Op}})
	ok := !won.Inserted && won.Record != nil
	var r Record
	if ok {
		r = *won.Record
	}
	switch {
	case ok && b.Payload != fingerprint(r):
		reply(b, 422, 0) // the key of another request: refuse, change nothing
	case ok && r.State == "COMPLETED":
		reply(b, r.Status, r.Value) // the stored response
	case ok:
		reply(b, 409, 0) // still PROCESSING: the client retries later
	default: // inserted: the row is durable before the gateway is called
		charge(b.Op, b.Attempt, b.Key, b.Payload)
	}
}

// fingerprint is the body a key's row was created for: a PROCESSING row
// keeps it in value (and the op in aux, for recovery), a COMPLETED row in
// aux (value is the transaction id).
func fingerprint(r Record) int64 {
	if r.State == "COMPLETED" {
		return r.Aux
	}
	return r.Value
}

func complete(b Body, answer bool) {
	r, ok := lookup(b.Key, b.Op)
	if !ok || r.State != "COMPLETED" {
		r = Record{State: "COMPLETED", Status: 201, Value: b.Value, Aux: b.Payload}
		store(b.Key, b.Op, r)
	}
	if answer {
		reply(b, r.Status, r.Value)
	}
}

func lookupResult(b Body) {
	r, ok := lookup(b.Key, b.Op)
	if !ok || r.State != "PROCESSING" {
		return // resolved already
	}
	if b.Status == 200 {
		complete(b, false) // charged before the crash: record it, charge nothing
		return
	}
	charge(b.Op, 0, b.Key, r.Value) // never charged: charge now, same key
}

// recoverKeys asks the gateway about every key a crash left PROCESSING.
// With --replicas N every replica restarts and runs this at once: each
// key is first claimed for this incarnation (status = incarnation, in one
// compare_and_set), and only the replica whose claim swapped looks it
// up, so a key never charged is charged once, not once per replica.
func recoverKeys(incarnation int64) {
	for _, key := range call("durable", Body{Type: "list"}).Keys {
		r, ok := lookup(key, 0)
		if !ok || r.State != "PROCESSING" || r.Status == incarnation {
			continue // done, or claimed by another replica of this incarnation
		}
		claimed := r
		claimed.Status = incarnation
		if !call("durable", Body{Type: "compare_and_set", Key: key, Op: r.Aux, Expected: &r, Record: &claimed}).Swapped {
			continue // another replica claimed it between the read and the swap
		}
		send("gateway", Body{Type: "lookup", Op: r.Aux, Key: key, Payload: r.Value})
	}
}

func main() {
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for {
		m := read()
		b := m.Body
		switch b.Type {
		case "init":
			me = b.NodeID
			fmt.Fprintf(os.Stderr, "init: incarnation %d\n", b.Incarnation)
			if b.Incarnation > 1 {
				recoverKeys(int64(b.Incarnation))
			}
		case "pay":
			pay(b)
		case "charge-result":
			complete(b, true)
		case "lookup-result":
			lookupResult(b)
		}
		done := Body{Type: "done", InReplyTo: b.MsgID}
		if b.Type == "init" && resetCapable {
			done.Capabilities = []string{"reset"}
		}
		send("harness", done)
		if b.Type == "reset" { // between two runs: forget everything, the next line is an init
			me, nextID = "", 0
		}
	}
}
