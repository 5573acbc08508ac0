package lab

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// capReset is the capability a node declares in the done that answers
// init ("capabilities": ["reset"]): sent a reset event between two runs,
// it forgets everything it holds in memory, answers done, and is then as
// a fresh process is — its next line is an init. An explore hands the
// next schedule such a process instead of starting one, so an
// interpreter's start-up is paid once per worker, not once per schedule.
const capReset = "reset"

// capabilities are the optional capabilities a node may declare.
var capabilities = []string{capReset}

// maxIdle bounds the idle processes a pool keeps per node.
const maxIdle = 32

// pool keeps idle processes that declared reset and were reset, per
// played node, for the next run of the same lab to take instead of
// starting fresh ones. Explore owns it; it is safe for its workers.
type pool struct {
	mu     sync.Mutex
	idle   map[string][]*process
	reused atomic.Int64 // processes handed out again
	// keepOnly: take hands out nothing (every start spawns), while the
	// end of a run still resets and keeps (Explore's check of reset)…
	keepOnly bool
	// … except, if source is set, a first incarnation's processes, taken
	// from source: a check after the first compares restarts only, its
	// processes' first incarnation having been checked already.
	source *pool
}

func newPool() *pool { return &pool{idle: map[string][]*process{}} }

// take returns an idle process of node for its first incarnation or a
// restart, nil if there is none.
func (p *pool) take(node string, restart bool) *process {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.keepOnly {
		if restart || p.source == nil {
			return nil
		}
		return p.source.take(node, false)
	}
	list := p.idle[node]
	if len(list) == 0 {
		return nil
	}
	proc := list[len(list)-1]
	p.idle[node] = list[:len(list)-1]
	p.reused.Add(1)
	return proc
}

// put keeps a reset process of node for the next run; it reports false
// (and keeps nothing) when the pool is full.
func (p *pool) put(node string, proc *process) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle[node]) >= maxIdle {
		return false
	}
	p.idle[node] = append(p.idle[node], proc)
	return true
}

// size is how many idle processes the pool holds.
func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.idle {
		n += len(l)
	}
	return n
}

// adopt moves every idle process of q into p (killing what p has no
// room for).
func (p *pool) adopt(q *pool) {
	for node, list := range q.takeIdle() {
		for _, proc := range list {
			if !p.put(node, proc) {
				proc.kill()
			}
		}
	}
}

// takeIdle empties the pool and returns the idle processes it held.
func (p *pool) takeIdle() map[string][]*process {
	p.mu.Lock()
	defer p.mu.Unlock()
	idle := p.idle
	p.idle = map[string][]*process{}
	return idle
}

// close kills every idle process.
func (p *pool) close() {
	for _, list := range p.takeIdle() {
		for _, proc := range list {
			proc.kill()
		}
	}
}

// reset sends proc, node's idle process, the reset event and reads its
// done. On success proc is as a fresh process, with an empty stderr
// ring; the stderr it wrote since its last init is returned. On failure
// the process is killed and the error says what it answered.
func (n *Node) reset(proc *process) ([]byte, error) {
	line := encodeLine(addrHarness, n.name, &body{Type: "reset", MsgID: i64(0)})
	fail := func(err error) ([]byte, error) {
		log := proc.kill()
		return log, err
	}
	if err := proc.writeLine(line, n.s.lab.stepTimeout()); err != nil {
		return fail(n.procErr(proc, err))
	}
	raw, err := proc.readLine(n.s.lab.stepTimeout())
	if err != nil {
		return fail(n.procErr(proc, err))
	}
	env, b, err := parseLine(raw)
	if err == nil && (env.Src != n.name || env.Dest != addrHarness || b.Type != "done" || val(b.InReplyTo) != 0 ||
		b.Capabilities != nil) {
		err = fmt.Errorf("answered %s: a reset is answered with done alone, in_reply_to 0 (it declared %q in its init)", quoteLine(string(raw)), capReset)
	}
	if err != nil {
		return fail(err)
	}
	proc.canReset = false // declared again by the next init's done
	// What it started in this run goes with the run, as it would with a
	// killed process (its children reap their own; the rest are swept).
	killDescendants(proc.proc.Pid, proc.marker)
	return proc.stderr.take(), nil
}

// park resets proc and keeps it in the session's pool, or kills it when
// the pool is full. It returns the stderr proc wrote in this incarnation.
func (n *Node) park(proc *process) ([]byte, error) {
	log, err := n.reset(proc)
	if err != nil {
		return log, err
	}
	if !n.s.pool.put(n.name, proc) {
		log = append(log, proc.kill()...)
	}
	return log, nil
}
