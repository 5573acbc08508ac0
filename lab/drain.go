package lab

import (
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// A crash point falls in the middle of an event: the world has seen the
// process's last action and sees nothing more of this incarnation. A
// process that declared reset need not be killed for that: the harness
// lets it finish the event unheard — its lines read and dropped, its
// store requests answered by a private copy of the stores, never by the
// node's own — and then resets it. What the world sees is what a kill
// gives; the process is spared a restart. A process that does not finish
// cleanly within the step timeout is killed, as it would have been.

// sandbox is a copy of a node's stores that answers a drained process.
type sandbox struct {
	rows [2]map[int64]sim.Record
}

// newSandbox copies the node's two stores as they are now (no trace).
func newSandbox(ctx *sim.Context) *sandbox {
	s := &sandbox{}
	for t := range s.rows {
		view := ctx.Rows(sim.TableID(t))
		s.rows[t] = make(map[int64]sim.Record, view.Len())
		for i := range view.Len() {
			k, r := view.At(i)
			s.rows[t][k] = r
		}
	}
	return s
}

// answer is what the copy answers request b on table t, nil if b is no
// request it knows (the drain then gives up).
func (s *sandbox) answer(t sim.TableID, b body) *body {
	if b.MsgID == nil {
		return nil
	}
	rows := s.rows[t]
	key := val(b.Key)
	old, found := rows[key]
	rec := func(r *record) sim.Record {
		if r == nil {
			return sim.Record{}
		}
		out, _ := toRecord(*r)
		return out
	}
	yes := func(v bool) *bool { return &v }
	reply := &body{Type: b.Type + "_ok", InReplyTo: b.MsgID}
	switch b.Type {
	case "read":
		reply.Found = yes(found)
		if found {
			reply.Record = fromRecord(old)
		}
	case "write", "insert":
		rows[key] = rec(b.Record)
	case "insert_if_absent", "set_nx_px":
		if b.Type == "insert_if_absent" {
			reply.Inserted = yes(!found)
		} else {
			reply.Acquired = yes(!found)
		}
		if found {
			reply.Record = fromRecord(old)
		} else if b.Type == "set_nx_px" {
			rows[key] = sim.Record{State: roles.KeyProcessing, Value: val(b.Value)} // OK or nil: no token
		} else {
			rows[key] = rec(b.Record)
		}
	case "update":
		reply.Updated = yes(found)
		if found {
			rows[key] = rec(b.Record)
		}
	case "compare_and_set":
		same := found && old == rec(b.Expected)
		reply.Swapped, reply.Found = yes(same), yes(found)
		if found {
			reply.Record = fromRecord(old)
		}
		if same {
			rows[key] = rec(b.Record)
		}
	case "delete":
		delete(rows, key)
	case "list":
		keys := make([]int64, 0, len(rows))
		for k := range rows {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		reply.Keys = &keys
	default:
		return nil
	}
	return reply
}

// drain lets r's process finish the event it was answering when the
// node crashed, unheard (held: the store answer a preemption held back,
// handed over first), and reports whether it ended with done, so that it
// may be reset. Its inbox is dropped: those events never reached it.
func (n *Node) drain(r *replica, box *sandbox) bool {
	p := r.proc
	if r.held != nil {
		if p.writeLine(r.held, n.s.lab.stepTimeout()) != nil {
			return false
		}
	}
	for range maxActions {
		raw, err := p.readLine(n.s.lab.stepTimeout())
		if err != nil || p.stderrBytes() > maxStderr {
			return false
		}
		env, b, err := parseLine(raw)
		if err != nil || env.Src != n.name {
			return false
		}
		switch env.Dest {
		case addrHarness:
			if b.Type == "done" {
				if r.init { // its init's done declares the capability, or not
					p.canReset = slices.Contains(b.Capabilities, capReset)
					return p.canReset && b.InReplyTo != nil && *b.InReplyTo == r.event
				}
				return b.InReplyTo != nil && *b.InReplyTo == r.event
			}
		case addrDurable, addrVolatile:
			t := tableDurable
			if env.Dest == addrVolatile {
				t = tableVolatile
			}
			reply := box.answer(t, b)
			if reply == nil || p.writeLine(encodeLine(env.Dest, n.name, reply), n.s.lab.stepTimeout()) != nil {
				return false
			}
		}
	}
	return false
}
