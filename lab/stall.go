package lab

import (
	"fmt"
	"hash/fnv"

	"github.com/oncesim/once/sim"
)

// A schedule that makes no progress — a key left PROCESSING by a crash,
// answered 409 to every retry — would run to the virtual-time budget,
// retry after retry, each one a step the explorer must replay and may
// branch on. The harness ends it instead, as soon as it is plain that
// nothing will change: the same delivery answered the same way, with the
// same stores, over stallRetries retries and a stretch of virtual time
// longer than twice any fault's duration (a late or slow message, a
// pause, has arrived by then), with no timer of the node pending and no
// lock's time to live running. The run is then judged as finished: what
// has not happened by then never will (a liveness verdict, "never
// completes", naming the operation and its last answer).

// stallRetries is how many identical answers in a row end a run.
const stallRetries = 8

// minStallSpan is the least stretch of virtual time they must cover.
const minStallSpan = sim.Time(60_000)

// Stall is a run the harness ended because it made no progress.
type Stall struct {
	Node    string
	Op      sim.OpID
	Event   string   // the delivery retried, e.g. "pay from client"
	Answer  string   // the node's last answer to it (its first line)
	Retries int      // identical answers in a row
	From    sim.Time // the first of them
	At      sim.Time // the last, where the run was ended
}

func (s *Stall) String() string {
	return fmt.Sprintf("%s never completes: its %s was answered the same way %d times in a row, from %s to %s of virtual time, with the stores unchanged, last %s (the run was ended there, not at its time budget)",
		s.Op, s.Event, s.Retries, s.From, s.At, quoteLine(s.Answer))
}

// retryKey is a delivery and its retries.
type retryKey struct {
	node sim.NodeID
	from sim.NodeID
	kind sim.MsgKind
	op   sim.OpID
	key  int64
}

// retryState is the answer last given to a retryKey.
type retryState struct {
	answer string
	stores uint64
	count  int
	since  sim.Time
}

// stallSpan is the virtual time a stall must cover for the session's
// settings.
func (s *Session) stallSpan() sim.Time {
	span := minStallSpan
	for k := range sim.FaultKinds {
		if d := 2 * s.lab.Settings.Faults.DurationOf(sim.FaultKind(k)); d > span {
			span = d
		}
	}
	return span
}

// noteAnswer records r's answer to the delivery m (the step at idx just
// ended) and ends the run as stalled when the retries show no progress.
func (n *Node) noteAnswer(ctx *sim.Context, m *sim.Message, idx int) {
	s := n.s
	if m == nil || s.stall != nil || idx >= len(s.transcript.steps) {
		return
	}
	if s.retries == nil {
		s.retries = map[retryKey]*retryState{}
		s.span = s.stallSpan()
	}
	k := retryKey{n.id, m.From, m.Kind, m.Op, m.Key}
	step := &s.transcript.steps[idx]
	answer, first := normalAnswer(step.Out)
	stores := n.storesHash(ctx)
	st := s.retries[k]
	quiet := len(n.pending) == 0 && !n.locksRunning(ctx)
	if st == nil || st.answer != answer || st.stores != stores || !quiet {
		s.retries[k] = &retryState{answer: answer, stores: stores, count: 1, since: ctx.Now()}
		return
	}
	st.count++
	if st.count >= stallRetries && ctx.Now()-st.since >= s.span {
		topo := s.cfg.Topology
		s.stall = &Stall{Node: n.name, Op: m.Op, Event: topo.MessageName(m.Kind) + " from " + topo.NodeName(m.From),
			Answer: first, Retries: st.count, From: st.since, At: ctx.Now()}
	}
}

// normalAnswer is what a step answered with the fields that change from
// retry to retry (msg_id, in_reply_to, attempt, time) cleared, and the
// line that answered, as written: its first message to a node or sink,
// else its first store request.
func normalAnswer(out []string) (string, string) {
	var b []byte
	first, store := "", ""
	for _, line := range out {
		env, body, err := parseLine([]byte(line))
		if err != nil {
			b = append(b, line...)
			continue
		}
		switch env.Dest {
		case addrHarness:
		case addrDurable, addrVolatile:
			if store == "" {
				store = line
			}
		default:
			if first == "" {
				first = line
			}
		}
		body.MsgID, body.InReplyTo, body.Attempt, body.Time = nil, nil, nil, nil
		b = append(b, encodeLine(env.Src, env.Dest, &body)...)
		b = append(b, '\n')
	}
	if first == "" {
		first = store
	}
	return string(b), first
}

// storesHash sums up both stores' rows.
func (n *Node) storesHash(ctx *sim.Context) uint64 {
	h := fnv.New64a()
	var buf [8 * 6]byte
	for t := range tables {
		rows := ctx.Rows(sim.TableID(t))
		for i := range rows.Len() {
			k, r := rows.At(i)
			for j, v := range []int64{int64(t), k, int64(r.State), int64(r.Status), r.Value, r.Aux} {
				for x := range 8 {
					buf[8*j+x] = byte(v >> (8 * x))
				}
			}
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}

// locksRunning reports whether a set_nx_px key's time to live is still
// running: its expiry would change the stores.
func (n *Node) locksRunning(ctx *sim.Context) bool {
	for _, m := range n.expiry {
		for _, at := range m {
			if at > ctx.Now() {
				return true
			}
		}
	}
	return false
}
