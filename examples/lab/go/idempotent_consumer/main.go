// Command idempotent_consumer is the idempotent billing consumer for
// `once lab at-least-once-duplicate --node consumer=...`. In this order:
// look the operation up in the durable store; if it is there the record
// was billed already, so only commit; if not, write the dedup row, then
// the billing row (the harness commits store writes together with the
// effect that follows them: one local transaction), then commit.
// Protocol: docs/lab-protocol.md. Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Record is a row of the harness's store.
type Record struct {
	State string `json:"state,omitempty"`
	Value int64  `json:"value,omitempty"`
}

// Body is a message body: every field this node reads or writes.
type Body struct {
	Type         string   `json:"type"`
	MsgID        int64    `json:"msg_id,omitempty"`
	InReplyTo    int64    `json:"in_reply_to,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"` // in the done of init: "reset"
	NodeID       string   `json:"node_id,omitempty"`
	Op           int64    `json:"op"`
	Attempt      int64    `json:"attempt,omitempty"`
	Key          int64    `json:"key"`
	Payload      int64    `json:"payload,omitempty"`
	Value        int64    `json:"value,omitempty"`
	Record       *Record  `json:"record,omitempty"`
	Found        bool     `json:"found,omitempty"`
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

func deliver(from string, b Body) {
	seen := call("durable", Body{Type: "read", Key: b.Op, Op: b.Op}).Found
	if !seen {
		call("durable", Body{Type: "write", Key: b.Op, Op: b.Op, Record: &Record{State: "COMPLETED", Value: b.Key}})
		send("billing", Body{Type: "effect", Op: b.Op, Value: b.Payload})
	}
	send(from, Body{Type: "commit", Op: b.Op, Attempt: b.Attempt, Key: b.Key})
}

func main() {
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for {
		m := read()
		switch m.Body.Type {
		case "init":
			me = m.Body.NodeID
		case "deliver":
			deliver(m.Src, m.Body)
		}
		done := Body{Type: "done", InReplyTo: m.Body.MsgID}
		if m.Body.Type == "init" && resetCapable {
			done.Capabilities = []string{"reset"}
		}
		send("harness", done)
		if m.Body.Type == "reset" { // between two runs: forget everything, the next line is an init
			me, nextID = "", 0
		}
	}
}
