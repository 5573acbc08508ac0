package lab

import "github.com/oncesim/once/sim"

// replica is one process of a played node. With --replicas N a node is N
// processes behind one address, as N instances of a service behind a
// balancer: each answers one event at a time (lock-step), and they meet
// only in the node's stores. A replica whose store answer a preemption
// held back is still answering its event: what arrives for it meanwhile
// waits in its inbox.
type replica struct {
	idx       int
	proc      *process
	cancelled map[int64]bool // timers cancelled in this incarnation
	timerSeq  int64
	started   bool // it has written a line: its start-up is over
	handed    bool // it has been handed a line

	busy      bool // between an event and its done
	init      bool // the event being answered is init
	held      []byte
	inbox     []pending
	event     int64 // msg_id of the event being answered
	eventDesc string
	msg       *sim.Message // the delivery being answered, for crash points
	n         int          // the node's step number of the event
	stepIdx   int          // its transcript step
	queued    int          // messages and timers queued by the event
	sent      bool         // it sent, and has not changed anything since (pointAfterSend)
}

// pending is an event waiting for its replica.
type pending struct {
	src  string
	b    *body
	desc string
	m    *sim.Message
}
