package lab

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Tables of a lab node: the durable store survives a crash, the volatile
// one is emptied by it. Both are traced, so every read and write shows in
// the trace, the diagrams and the TUI.
const (
	tableDurable sim.TableID = iota
	tableVolatile
)

// tables are the lab node's tables, in TableID order.
var tables = []sim.TableSpec{
	roles.StoreTable(addrDurable, true, roles.KeyStates),
	roles.StoreTable(addrVolatile, false, roles.KeyStates),
}

// Crash points of a lab node: where the harness may kill the process.
// A session adds their names to its topology (labPoints, in this order)
// and numbers them from its pointBase.
const (
	// pointReceive: an event arrived; the process has not seen it.
	pointReceive = iota
	// pointBeforeSend: the process asked to send; the message is not sent.
	pointBeforeSend
	// pointAfterEffect: the effect (and every write before it) is done.
	pointAfterEffect
	// pointAfterSend: the process sent, and asks for its next step that
	// changes something (an effect, a store write); that step is not
	// done. A handler that commits an offset before it bills, or answers
	// before it records, is caught here with one crash.
	pointAfterSend
)

// labPoints are the names of the lab's crash points, by the constants above.
var labPoints = []string{"lab-receive", "lab-before-send", "lab-after-effect", "lab-after-send"}

// Node is the sim.Node that drives the external processes of one played
// node: one, or N replicas sharing its stores (Lab.Replicas). It holds
// what real processes hold — the processes and their incarnation — and
// nothing the engine's fingerprint would need: explore re-executes from
// the start instead of copying worlds.
type Node struct {
	s     *Session
	name  string
	id    sim.NodeID
	argv  []string
	sinks []string // sinks its effects may go to

	reps        []*replica
	cur         *replica // the replica whose actions are being applied
	rr          int      // requests handed out so far (the balancer's round robin)
	routes      map[route]int
	incarnation int
	step        int                   // events handed to the processes in this run, init included
	queuedRun   int                   // messages and timers queued by the whole run
	expiry      [2]map[int64]sim.Time // per table: when a set_nx_px key expires
	pending     map[timerID]timerRef  // timers set in this incarnation, not yet fired
}

// route is a reply's way back: a peer's message for op goes to the
// replica that last sent that peer something for op.
type route struct {
	peer sim.NodeID
	op   sim.OpID
}

// Start spawns fresh processes (incarnation 1 at boot, one more after
// every crash) and hands each init.
func (n *Node) Start(ctx *sim.Context) {
	if n.s.err != nil {
		return
	}
	n.stop(false, nil)
	n.incarnation++
	n.expiry[tableVolatile] = nil // the volatile table was emptied by the crash
	n.routes = map[route]int{}
	n.pending = map[timerID]timerRef{} // a crash cancelled them all
	count := max(n.s.lab.replicas(), 1)
	n.reps = make([]*replica, count)
	for i := range n.reps {
		r := &replica{idx: i, cancelled: map[int64]bool{}}
		n.reps[i] = r
		n.cur = r
		if p := n.s.pool.take(n.name, n.incarnation > 1); p != nil {
			r.proc, r.started = p, p.up // reset after its last run (or never handed a line): as a fresh process
			continue
		}
		p, err := spawn(n.argv, n.s.lab.Dir)
		if err != nil {
			n.step++
			n.fail(ctx, "init", err)
			return
		}
		r.proc = p
		if n.s.lab.OnSpawn != nil {
			n.s.lab.OnSpawn(p.proc.Pid)
		}
	}
	topo := n.s.cfg.Topology
	ids := make([]string, len(topo.Nodes))
	for i := range topo.Nodes {
		ids[i] = topo.Nodes[i].Name
	}
	for _, r := range n.reps {
		if n.s.err != nil || r.proc == nil {
			// A failure, or a crash point in an earlier replica's init
			// (a recovery that sends): the crash ended every replica's
			// incarnation, and the engine restarts the node later.
			return
		}
		seed := n.s.lab.Seed
		b := &body{Type: "init", NodeID: n.name, NodeIDs: ids, Seed: &seed, Incarnation: n.incarnation,
			Semantics: ctx.Semantics().Alias(), Role: n.s.roleOf(n.id), Ops: ctx.Ops(), Time: i64(int64(ctx.Now()))}
		if len(n.reps) > 1 {
			b.Replica, b.Replicas = i64(int64(r.idx+1)), i64(int64(len(n.reps)))
		}
		n.dispatch(ctx, r, pending{src: addrHarness, b: b, desc: n.describe(r, fmt.Sprintf("init, incarnation %d", n.incarnation))})
	}
}

// describe names an event, with its replica when there are several.
func (n *Node) describe(r *replica, desc string) string {
	if len(n.reps) > 1 {
		return fmt.Sprintf("replica %d: %s", r.idx+1, desc)
	}
	return desc
}

// pick is the replica a delivery goes to: a reply to what a replica sent
// goes back to it; a request goes round robin, as behind a balancer.
func (n *Node) pick(m *sim.Message) *replica {
	if len(n.reps) == 1 {
		return n.reps[0]
	}
	if i, ok := n.routes[route{m.From, m.Op}]; ok && m.From != n.s.cfg.Observe.Origin {
		return n.reps[i]
	}
	r := n.reps[n.rr%len(n.reps)]
	n.rr++
	return r
}

// Receive hands a process one delivered message. The node may crash
// before it sees it (pointReceive).
func (n *Node) Receive(ctx *sim.Context, m sim.Message) {
	if n.s.err != nil || len(n.reps) == 0 {
		return
	}
	if ctx.CrashPoint(n.s.point(pointReceive), &m) {
		n.crashed(ctx)
		return
	}
	topo := n.s.cfg.Topology
	b := &body{Type: topo.MessageName(m.Kind), Op: i64(int64(m.Op)), Attempt: i64(int64(m.Attempt)), Key: i64(m.Key),
		Payload: i64(m.Payload), Value: i64(m.Value), Status: i64(int64(m.Status)), Time: i64(int64(ctx.Now()))}
	r := n.pick(&m)
	desc := n.describe(r, fmt.Sprintf("delivery of %s from %s (op %d, attempt %d)", b.Type, topo.NodeName(m.From), m.Op, m.Attempt))
	n.dispatch(ctx, r, pending{src: topo.NodeName(m.From), b: b, desc: desc, m: &m})
	if n.s.lab.Twice && n.s.err == nil && len(n.reps) > 0 {
		// The idempotence check: the same delivery, handed over again at
		// once. A handler that is not idempotent doubles its effect.
		again := *b
		n.dispatch(ctx, r, pending{src: topo.NodeName(m.From), b: &again, desc: desc + ", handed over twice (--twice)", m: &m})
	}
}

// Timer hands a process a timer it set and did not cancel, or resumes a
// replica whose store answer a preemption held back.
func (n *Node) Timer(ctx *sim.Context, t sim.Timer) {
	if n.s.err != nil || len(n.reps) == 0 || int(t.Attempt) >= len(n.reps) {
		return
	}
	r := n.reps[t.Attempt]
	if t.Kind == n.s.resumeTimer {
		n.resume(ctx, r)
		return
	}
	delete(n.pending, timerID{r.idx, t.Key})
	if r.cancelled[t.Key] {
		return
	}
	name := n.s.cfg.Topology.TimerName(t.Kind)
	b := &body{Type: "timer", Name: name, TimerID: i64(t.Key), Op: i64(int64(t.Op)), Time: i64(int64(ctx.Now()))}
	n.dispatch(ctx, r, pending{src: addrHarness, b: b, desc: n.describe(r, fmt.Sprintf("timer %s #%d", name, t.Key))})
}

// dispatch hands r an event now, or when it is done with the one it is
// answering (a replica descheduled by a preemption is still answering).
func (n *Node) dispatch(ctx *sim.Context, r *replica, ev pending) {
	if r.busy {
		r.inbox = append(r.inbox, ev)
		return
	}
	n.begin(ctx, r, ev)
}

// begin sends one event to r and applies what it answers.
func (n *Node) begin(ctx *sim.Context, r *replica, ev pending) {
	n.step++
	n.s.nextID++
	r.event, r.eventDesc, r.msg, r.queued, r.busy, r.n = n.s.nextID, ev.desc, ev.m, 0, true, n.step
	r.init, r.handed, r.sent = ev.b.Type == "init", true, false
	ev.b.MsgID = i64(r.event)
	line := encodeLine(ev.src, n.name, ev.b)
	r.stepIdx = n.s.transcript.begin(n.name, n.step, ev.desc, string(line))
	n.hand(ctx, r, line, ev.desc)
}

// resume hands r the store answer a preemption held back, and goes on.
func (n *Node) resume(ctx *sim.Context, r *replica) {
	if r.held == nil || r.proc == nil {
		return
	}
	line := r.held
	r.held = nil
	n.hand(ctx, r, line, r.eventDesc)
}

// hand writes line to r, the replica now in the node's hands, and applies
// its actions; a failed write fails the run at the event desc.
func (n *Node) hand(ctx *sim.Context, r *replica, line []byte, desc string) {
	n.cur = r
	if err := r.proc.writeLine(line, n.s.lab.stepTimeout()); err != nil {
		n.fail(ctx, desc, n.ioErr(err))
		return
	}
	n.run(ctx, r)
}

// run applies r's actions until done (then the next event of its inbox),
// a preemption (r waits for its store answer), a crash or an error.
func (n *Node) run(ctx *sim.Context, r *replica) {
	for {
		if n.s.err != nil || r.proc == nil {
			return
		}
		switch n.actions(ctx, r) {
		case stepHeld, stepEnded:
			return
		}
		r.busy = false
		n.s.transcript.mark(r.stepIdx)
		n.noteAnswer(ctx, r.msg, r.stepIdx)
		if len(r.inbox) == 0 {
			return
		}
		ev := r.inbox[0]
		r.inbox = r.inbox[1:]
		n.step++
		n.s.nextID++
		r.event, r.eventDesc, r.msg, r.queued, r.busy, r.n = n.s.nextID, ev.desc, ev.m, 0, true, n.step
		r.init, r.sent = ev.b.Type == "init", false
		ev.b.MsgID = i64(r.event)
		line := encodeLine(ev.src, n.name, ev.b)
		r.stepIdx = n.s.transcript.begin(n.name, n.step, ev.desc, string(line))
		n.cur = r
		if err := r.proc.writeLine(line, n.s.lab.stepTimeout()); err != nil {
			n.fail(ctx, ev.desc, n.ioErr(err))
			return
		}
	}
}

// How a run of actions ended.
const (
	stepDone  = iota // done: the replica is free
	stepHeld         // a store answer is held back: the replica waits
	stepEnded        // a crash or an error: nothing more
)

// actions reads and applies r's lines until done, a held store answer, a
// crash or an error.
func (n *Node) actions(ctx *sim.Context, r *replica) int {
	desc := r.eventDesc
	for range maxActions {
		timeout := n.s.lab.stepTimeout()
		if !r.started {
			// A process's first answer also waits for its start-up (an
			// interpreter behind a version manager's shim, on a busy
			// machine, takes seconds): not the node's doing.
			timeout += n.s.lab.startAllowance()
		}
		raw, err := r.proc.readLine(timeout)
		r.started = true
		if err != nil {
			n.fail(ctx, desc, n.ioErr(err))
			return stepEnded
		}
		n.s.transcript.action(r.stepIdx, string(raw))
		if t := &n.s.transcript; t.bytes > n.s.memLimit {
			n.fail(ctx, desc, &MemoryError{Limit: n.s.memLimit, Of: n.s.memOf, Held: t.bytes, Steps: len(t.steps)})
			return stepEnded
		}
		if r.proc.stderrBytes() > maxStderr {
			n.fail(ctx, desc, fmt.Errorf("wrote more than %d MiB on stderr (a loop? the last %d KiB are shown)", maxStderr>>20, maxLog>>10))
			return stepEnded
		}
		env, ab, err := parseLine(raw)
		if err == nil {
			var how int
			how, err = n.apply(ctx, env, ab, r.msg)
			if err == nil && how != stepContinue {
				return how
			}
		}
		if err != nil {
			var pe *protocolError
			if errors.As(err, &pe) {
				err = fmt.Errorf("broke the protocol: %w in %s", err, quoteLine(string(raw)))
			}
			n.fail(ctx, desc, err)
			return stepEnded
		}
	}
	n.fail(ctx, desc, fmt.Errorf("sent more than %d actions without done", maxActions))
	return stepEnded
}

// stepContinue: the action is applied, read the next one.
const stepContinue = -1

// Bounds on what a node may ask of the engine: every message sent and
// every timer set waits in the engine's queue, so a node that sets a
// thousand zero-delay timers per event would grow it without end.
const (
	maxActions        = 10_000  // lines one event may bring
	maxQueuedPerEvent = 100     // messages and timers one event may queue
	maxQueuedPerRun   = 100_000 // … and a node's whole run
)

// queue counts one message or timer against the node's caps.
func (n *Node) queue(what string) error {
	n.cur.queued++
	n.queuedRun++
	if n.cur.queued > maxQueuedPerEvent {
		return fmt.Errorf("queued more than %d messages and timers in one event (the %s is one too many: a loop?)", maxQueuedPerEvent, what)
	}
	if n.queuedRun > maxQueuedPerRun {
		return fmt.Errorf("queued more than %d messages and timers in this run (the %s is one too many: a timer that sets timers?)", maxQueuedPerRun, what)
	}
	return nil
}

// ioErr turns a pipe error of the replica in hand into what the student
// needs to read.
func (n *Node) ioErr(err error) error { return n.procErr(n.cur.proc, err) }

// procErr turns a pipe error of p into what the student needs to read.
func (n *Node) procErr(p *process, err error) error {
	switch {
	case interrupted():
		return errInterrupted
	case errors.Is(err, errTimeout):
		return fmt.Errorf("did not answer within --step-timeout %s (an endless loop, a read of stdin that waits for more, or output not flushed?)", n.s.lab.stepTimeout())
	case errors.Is(err, errLongLine):
		return fmt.Errorf("wrote a line longer than %d bytes", maxLine)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.EPIPE):
		if p == nil {
			return errors.New("ended before done")
		}
		if st := p.exitStatus(); st != "" {
			return fmt.Errorf("exited (%s) before done", st)
		}
		return errors.New("closed its stdout before done")
	}
	return err
}

// apply performs one action; it says how the run of actions goes on:
// stepContinue, stepDone (done), stepHeld (a preempted store answer) or
// stepEnded (a crash point killed the processes).
func (n *Node) apply(ctx *sim.Context, env envelope, b body, m *sim.Message) (int, error) {
	if env.Src != n.name {
		return stepContinue, fieldErr("src", "%q, want the node's own id %q", env.Src, n.name)
	}
	topo := n.s.cfg.Topology
	switch env.Dest {
	case addrHarness:
		return n.harness(ctx, b)
	case addrDurable:
		return n.store(ctx, tableDurable, env.Dest, b)
	case addrVolatile:
		return n.store(ctx, tableVolatile, env.Dest, b)
	}
	if slices.Contains(n.s.sinks(), env.Dest) {
		return n.effect(ctx, env.Dest, b, m)
	}
	to, ok := topo.NodeByName(env.Dest)
	if !ok {
		return stepContinue, fieldErr("dest", "%q is no node, sink or store of this scenario (want one of %s, harness, durable, volatile)", env.Dest, n.s.peerNames())
	}
	return n.send(ctx, to, b, m)
}

func (n *Node) harness(ctx *sim.Context, b body) (int, error) {
	switch b.Type {
	case "done":
		if b.InReplyTo == nil || *b.InReplyTo != n.cur.event {
			got := "missing"
			if b.InReplyTo != nil {
				got = fmt.Sprint(*b.InReplyTo)
			}
			return stepContinue, fieldErr("body.in_reply_to", "%s, want %d (the msg_id of the event being answered)", got, n.cur.event)
		}
		if err := n.declare(b.Capabilities); err != nil {
			return stepContinue, err
		}
		return stepDone, nil
	case "set_timer":
		kind, ok := timerByName(n.s.cfg.Topology, b.Name)
		if !ok {
			return stepContinue, fieldErr("body.name", "%q is not a timer kind (want one of %s)", b.Name, timerNames(n.s.cfg.Topology))
		}
		if b.After == nil || *b.After < 0 || *b.After > int64(sim.DefaultMaxTime) {
			return stepContinue, fieldErr("body.after", "want the delay in milliseconds, 0..%d", int64(sim.DefaultMaxTime))
		}
		op, err := n.op(ctx, b.Op, false)
		if err != nil {
			return stepContinue, err
		}
		n.cur.timerSeq++
		id := n.cur.timerSeq
		if b.TimerID != nil {
			if *b.TimerID <= 0 {
				return stepContinue, fieldErr("body.timer_id", "want a positive number")
			}
			id = *b.TimerID
		}
		if err := n.queue("timer"); err != nil {
			return stepContinue, err
		}
		delete(n.cur.cancelled, id)
		ctx.After(sim.Time(*b.After), sim.Timer{Kind: kind, Op: op, Key: id, Attempt: int32(n.cur.idx)})
		n.pending[timerID{n.cur.idx, id}] = timerRef{kind, op}
		return stepContinue, nil
	case "cancel_timer":
		if b.TimerID == nil {
			return stepContinue, fieldErr("body.timer_id", "missing")
		}
		n.cancel(ctx, *b.TimerID)
		return stepContinue, nil
	}
	return stepContinue, fieldErr("body.type", "%q is not something the harness does (want done, set_timer, cancel_timer)", b.Type)
}

// op checks an operation number.
func (n *Node) op(ctx *sim.Context, v *int64, required bool) (sim.OpID, error) {
	if v == nil {
		if required {
			return 0, fieldErr("body.op", "missing")
		}
		return 0, nil
	}
	if *v < 0 || *v > int64(ctx.Ops()) {
		return 0, fieldErr("body.op", "%d, want an operation of this run, 1..%d", *v, ctx.Ops())
	}
	return sim.OpID(*v), nil
}

func (n *Node) send(ctx *sim.Context, to sim.NodeID, b body, m *sim.Message) (int, error) {
	kind, ok := n.s.cfg.Topology.MessageByName(b.Type)
	if !ok {
		return stepContinue, fieldErr("body.type", "%q is not a message type of this scenario", b.Type)
	}
	op, err := n.op(ctx, b.Op, true)
	if err != nil {
		return stepContinue, err
	}
	msg := sim.Message{Kind: kind, Op: op, Attempt: int32(val(b.Attempt)), Key: val(b.Key),
		Payload: val(b.Payload), Value: val(b.Value), Status: int32(val(b.Status))}
	if err := n.queue("message"); err != nil {
		return stepContinue, err
	}
	n.cur.sent = false // a crash before this send is the one after the last
	if ctx.CrashPoint(n.s.point(pointBeforeSend), m) {
		n.crashed(ctx)
		return stepEnded, nil
	}
	n.routes[route{to, op}] = n.cur.idx
	ctx.Send(to, msg)
	n.cur.sent = true
	return stepContinue, nil
}

func (n *Node) effect(ctx *sim.Context, sinkName string, b body, m *sim.Message) (int, error) {
	if b.Type != "effect" {
		return stepContinue, fieldErr("body.type", "%q, want effect (a sink only takes effects)", b.Type)
	}
	if !slices.Contains(n.sinks, sinkName) {
		return stepContinue, fieldErr("dest", "sink %q is not this node's to write (a %s writes %s)", sinkName, n.s.roleOf(n.id), sinksText(n.sinks))
	}
	op, err := n.op(ctx, b.Op, true)
	if err != nil {
		return stepContinue, err
	}
	if op == 0 {
		return stepContinue, fieldErr("body.op", "0, want the operation the effect belongs to")
	}
	if n.crashAfterSend(ctx, m) {
		return stepEnded, nil
	}
	sink := sim.SinkID(slices.Index(n.s.cfg.Topology.Sinks, sinkName))
	ctx.Effect(sink, op, val(b.Value))
	if ctx.CrashPoint(n.s.point(pointAfterEffect), m) {
		n.crashed(ctx)
		return stepEnded, nil
	}
	return stepContinue, nil
}

// store performs one store request — one atomic step, as one statement
// is in a real store — and answers it at once.
func (n *Node) store(ctx *sim.Context, table sim.TableID, name string, b body) (int, error) {
	if storeWrites(b.Type) && n.cur.sent {
		n.cur.sent = false
		if ctx.CrashPoint(n.s.point(pointAfterSend), n.cur.msg) {
			// The process waits for this request's answer: a drained
			// process (reset) gets the copy's, and finishes unheard.
			box := newSandbox(ctx)
			if reply := box.answer(table, b); reply != nil {
				n.cur.held = encodeLine(name, n.name, reply)
			}
			n.stop(true, box)
			return stepEnded, nil
		}
	}
	how, err := n.storeOp(ctx, table, name, b)
	if err != nil {
		return stepContinue, err
	}
	return how, nil
}

func (n *Node) storeOp(ctx *sim.Context, table sim.TableID, name string, b body) (int, error) {
	if b.MsgID == nil {
		return stepContinue, fieldErr("body.msg_id", "missing: a store request needs one, its answer carries it as in_reply_to")
	}
	reply := &body{InReplyTo: b.MsgID}
	op, err := n.op(ctx, b.Op, false)
	if err != nil {
		return stepContinue, err
	}
	var key int64
	if b.Type != "list" {
		if b.Key == nil {
			return stepContinue, fieldErr("body.key", "missing")
		}
		key = *b.Key
		n.expire(ctx, table, key, op)
	}
	newRow := func(field string, r *record) (sim.Record, error) {
		if r == nil {
			return sim.Record{}, fieldErr("body."+field, "missing")
		}
		return toRecord(*r)
	}
	yes := func(v bool) *bool { return &v }
	switch b.Type {
	case "read":
		r, ok := ctx.Get(table, key, op)
		reply.Type, reply.Found = "read_ok", &ok
		if ok {
			reply.Record = fromRecord(r)
		}
	case "write", "insert":
		r, err := newRow("record", b.Record)
		if err != nil {
			return stepContinue, err
		}
		n.setTTL(table, key, 0)
		ctx.Put(table, key, op, r)
		reply.Type = b.Type + "_ok"
	case "insert_if_absent":
		r, err := newRow("record", b.Record)
		if err != nil {
			return stepContinue, err
		}
		old, found := ctx.Get(table, key, op)
		reply.Type, reply.Inserted = "insert_if_absent_ok", yes(!found)
		if found {
			reply.Record = fromRecord(old)
		} else {
			ctx.Put(table, key, op, r)
		}
	case "update":
		r, err := newRow("record", b.Record)
		if err != nil {
			return stepContinue, err
		}
		_, found := ctx.Get(table, key, op)
		reply.Type, reply.Updated = "update_ok", yes(found)
		if found {
			ctx.Put(table, key, op, r)
		}
	case "compare_and_set":
		r, err := newRow("record", b.Record)
		if err != nil {
			return stepContinue, err
		}
		want, err := newRow("expected", b.Expected)
		if err != nil {
			return stepContinue, err
		}
		old, found := ctx.Get(table, key, op)
		same := found && old.State == want.State && old.Status == want.Status && old.Value == want.Value && old.Aux == want.Aux
		reply.Type, reply.Swapped, reply.Found = "compare_and_set_ok", yes(same), yes(found)
		if found {
			reply.Record = fromRecord(old)
		}
		if same {
			ctx.Put(table, key, op, r)
		}
	case "set_nx_px":
		if b.TTL == nil || *b.TTL <= 0 || *b.TTL > int64(sim.DefaultMaxTime) {
			return stepContinue, fieldErr("body.ttl", "want the lock's time to live in milliseconds, 1..%d", int64(sim.DefaultMaxTime))
		}
		old, found := ctx.Get(table, key, op)
		reply.Type, reply.Acquired = "set_nx_px_ok", yes(!found)
		if found {
			reply.Record = fromRecord(old)
		} else {
			// OK or nil, as Redis answers SET … NX PX: no fencing token.
			ctx.Put(table, key, op, sim.Record{State: roles.KeyProcessing, Value: val(b.Value)})
			n.setTTL(table, key, ctx.Now()+sim.Time(*b.TTL))
		}
	case "delete":
		n.setTTL(table, key, 0)
		ctx.Delete(table, key, op)
		reply.Type = "delete_ok"
	case "list":
		rows := ctx.Rows(table)
		keys := make([]int64, 0, rows.Len())
		for i := range rows.Len() {
			k, _ := rows.At(i)
			if at, ok := n.expiry[table][k]; !ok || ctx.Now() < at {
				keys = append(keys, k)
			}
		}
		reply.Type, reply.Keys = "list_ok", &keys
	default:
		return stepContinue, fieldErr("body.type", "%q is not a store request (want read, write, insert, insert_if_absent, update, compare_and_set, set_nx_px, delete, list)", b.Type)
	}
	line := encodeLine(name, n.name, reply)
	r := n.cur
	if n.s.preemptible() {
		held := sim.Message{Kind: n.s.replyKind(reply.Type), Op: op, Attempt: int32(r.idx + 1)}
		if ctx.Preempt(&held, n.s.preemptP) {
			// Descheduled between this store step and its next: the
			// answer waits, and other events run first.
			r.held = line
			ctx.After(n.s.preemptFor, sim.Timer{Kind: n.s.resumeTimer, Op: op, Attempt: int32(r.idx)})
			return stepHeld, nil
		}
	}
	if err := r.proc.writeLine(line, n.s.lab.stepTimeout()); err != nil {
		return stepContinue, n.ioErr(err)
	}
	return stepContinue, nil
}

// crashAfterSend offers the crash point between a send and the next step
// of the same handler that changes something (pointAfterSend), once per
// send; it reports whether the node crashed there.
func (n *Node) crashAfterSend(ctx *sim.Context, m *sim.Message) bool {
	if !n.cur.sent {
		return false
	}
	n.cur.sent = false
	if ctx.CrashPoint(n.s.point(pointAfterSend), m) {
		n.crashed(ctx)
		return true
	}
	return false
}

// storeWrites reports whether a store request of type t may change the
// store (a read or a list does not: a crash before it is the crash
// before the next step that does).
func storeWrites(t string) bool {
	switch t {
	case "write", "insert", "insert_if_absent", "update", "compare_and_set", "set_nx_px", "delete":
		return true
	}
	return false
}

// setTTL records when key of table expires (0: never).
func (n *Node) setTTL(table sim.TableID, key int64, at sim.Time) {
	if n.expiry[table] == nil {
		n.expiry[table] = map[int64]sim.Time{}
	}
	if at == 0 {
		delete(n.expiry[table], key)
		return
	}
	n.expiry[table][key] = at
}

// expire removes key from table if its time to live is over (the trace
// shows it expire), before a request reads it.
func (n *Node) expire(ctx *sim.Context, table sim.TableID, key int64, op sim.OpID) {
	if at, ok := n.expiry[table][key]; ok && ctx.Now() >= at {
		delete(n.expiry[table], key)
		ctx.Expire(table, key, op)
	}
}

func fromRecord(r sim.Record) *record {
	out := &record{Status: r.Status, Value: r.Value, Aux: r.Aux}
	if r.State > 0 && int(r.State) < len(roles.KeyStates) {
		out.State = roles.KeyStates[r.State]
	}
	return out
}

func toRecord(r record) (sim.Record, error) {
	out := sim.Record{Status: r.Status, Value: r.Value, Aux: r.Aux}
	if r.State != "" {
		i := slices.Index(roles.KeyStates, r.State)
		if i <= 0 {
			return out, fieldErr("body.record.state", "%q, want PROCESSING, COMPLETED or none", r.State)
		}
		out.State = int32(i)
	}
	return out, nil
}

func val(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// declare records the capabilities the done of init declares; they are
// refused on the done of any other event, and unknown ones are named.
func (n *Node) declare(caps []string) error {
	if caps == nil {
		return nil
	}
	if !n.cur.init {
		return fieldErr("body.capabilities", "only the done that answers init declares capabilities")
	}
	for _, c := range caps {
		if !slices.Contains(capabilities, c) {
			return fieldErr("body.capabilities", "%q is not a capability (want %s)", c, strings.Join(capabilities, ", "))
		}
	}
	n.cur.proc.canReset = slices.Contains(caps, capReset)
	return nil
}

// crashed ends the processes at a crash point: what they held in memory
// is gone; the engine restarts the node later with fresh ones. In an
// explore, a process that declared reset is drained and reset instead of
// killed (drain.go): the world sees the same, and the restart takes a
// reset process from the pool.
func (n *Node) crashed(ctx *sim.Context) { n.stop(true, newSandbox(ctx)) }

// stop ends every replica's process and keeps their logs; it returns
// the log's tail of the replica being answered. With reuse, a replica
// whose process declared reset is reset and kept in the explore's pool
// instead of killed: an idle one at once, one in the middle of an event
// after it finished the event unheard (drain.go), if box is given.
func (n *Node) stop(reuse bool, box *sandbox) []byte {
	var cur []byte
	for _, r := range n.reps {
		if r == nil || r.proc == nil {
			continue
		}
		var log []byte
		if reuse && n.s.pool != nil && !r.handed {
			// Never handed a line (a crash in another replica's init came
			// first): as a fresh process, kept as it is.
			if n.s.pool.put(n.name, r.proc) {
				r.proc = nil
				r.held, r.inbox, r.busy = nil, nil, false
				continue
			}
		}
		// A replica in the middle of its init has not declared reset
		// yet: drained, its done says whether it may be reset.
		mayReset := r.proc.canReset || r.busy && r.init && box != nil
		if reuse && n.s.pool != nil && mayReset && (!r.busy || box != nil && n.drain(r, box)) {
			var err error
			if log, err = n.park(r.proc); err != nil && n.s.err == nil {
				n.s.err = &Error{Node: n.name, Step: n.step, Event: n.describe(r, "reset, between runs or at a crash"), Err: err, Stderr: log, Incarnation: n.incarnation}
			}
		} else {
			log = r.proc.kill()
		}
		r.proc = nil
		r.held, r.inbox, r.busy = nil, nil, false
		name := n.name
		if len(n.reps) > 1 {
			name = fmt.Sprintf("%s (replica %d)", n.name, r.idx+1)
		}
		n.s.keepLog(name, n.incarnation, log)
		if r == n.cur {
			cur = log
		}
	}
	n.reps = nil
	return cur
}

// fail records the first error of the run and stops the processes; the
// node does nothing more in this run.
func (n *Node) fail(_ *sim.Context, desc string, err error) {
	log := n.stop(false, nil)
	if n.s.err == nil {
		n.s.err = &Error{Node: n.name, Step: n.step, Event: desc, Err: err, Stderr: log, Incarnation: n.incarnation}
	}
}

// Error is a lab node that could not be judged: it exited, wrote garbage,
// broke the protocol, or hung. It prints as one line naming the node and
// the step; Stderr holds the tail of what the failing incarnation wrote
// on stderr (at most 64 KiB), for the command to show.
type Error struct {
	Node        string
	Step        int    // the event, counted from 1 (init) in this run
	Event       string // what the event was
	Err         error
	Stderr      []byte
	Incarnation int
}

func (e *Error) Error() string {
	return fmt.Sprintf("lab: node %s, step %d (%s): %v", e.Node, e.Step, e.Event, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func timerByName(t *sim.Topology, name string) (sim.TimerKind, bool) {
	for i, n := range t.Timers {
		if n == name && n != "" {
			return sim.TimerKind(i), true
		}
	}
	return 0, false
}

func timerNames(t *sim.Topology) string {
	var names []string
	for _, n := range t.Timers {
		if n != "" {
			names = append(names, n)
		}
	}
	return joinSorted(names)
}

func sinksText(sinks []string) string {
	if len(sinks) == 0 {
		return "no sink: its effects happen at another node"
	}
	return joinSorted(sinks)
}
