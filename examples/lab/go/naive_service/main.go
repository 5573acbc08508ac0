// Command naive_service is the naive payment service for
// `once lab double-billing --node service=...`: it charges the card for
// every POST /payments it receives, so a retry after a lost response is
// charged again. Protocol: docs/lab-protocol.md. Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Body is a message body: every field this node reads or writes.
type Body struct {
	Type         string   `json:"type"`
	MsgID        int64    `json:"msg_id,omitempty"`
	InReplyTo    int64    `json:"in_reply_to,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"` // in the done of init: "reset"
	NodeID       string   `json:"node_id,omitempty"`
	Incarnation  int      `json:"incarnation,omitempty"`
	Op           int64    `json:"op"`
	Attempt      int64    `json:"attempt"`
	Key          int64    `json:"key"`
	Payload      int64    `json:"payload"`
	Value        int64    `json:"value"`
	Status       int64    `json:"status"`
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
	me  string
	in  = bufio.NewScanner(os.Stdin)
	out = json.NewEncoder(os.Stdout) // one line per Encode, unbuffered
)

func send(dest string, b Body) {
	if err := out.Encode(Msg{Src: me, Dest: dest, Body: b}); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}

func main() {
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var m Msg
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			os.Exit(1)
		}
		b := m.Body
		switch b.Type {
		case "init":
			me = b.NodeID
			fmt.Fprintf(os.Stderr, "init: incarnation %d\n", b.Incarnation)
		case "pay": // POST /payments: charge the card, key and body passed on
			send("gateway", Body{Type: "charge", Op: b.Op, Attempt: b.Attempt, Key: b.Key, Payload: b.Payload})
		case "charge-result": // charged: answer 201 with the transaction id
			send("client", Body{Type: "pay-response", Op: b.Op, Attempt: b.Attempt, Status: 201, Value: b.Value})
		}
		done := Body{Type: "done", InReplyTo: b.MsgID}
		if b.Type == "init" && resetCapable {
			done.Capabilities = []string{"reset"}
		}
		send("harness", done)
		if b.Type == "reset" { // between two runs: forget everything, the next line is an init
			me = ""
		}
	}
}
