package payments

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Invariants and metrics of the HTTP family. Each is a fold over the
// trace; none looks inside a node.

// isHTTPRequest and isHTTPResponse name the endpoint messages a client
// exchanges with a service.
func isHTTPRequest(k sim.MsgKind) bool  { return k == MsgPayRequest || k == MsgOrder }
func isHTTPResponse(k sim.MsgKind) bool { return k == MsgPayResponse || k == MsgOrderResponse }

// keyBody is the first body seen under an Idempotency-Key.
type keyBody struct {
	Key  idemKey
	Body fingerprint
	Op   sim.OpID
}

// rejectedReuse is the invariant "a key reused with another body is
// refused": the first body a service receives under a key owns it; any
// later request with that key and a different body must be answered 422
// and must have no effect at all. It is judged from deliveries of
// requests, sends of responses and effects.
type rejectedReuse struct {
	firsts  []keyBody  // by key
	reusers []sim.OpID // operations that sent a key with another body, sorted
	roles.Verdict
}

func (x *rejectedReuse) reuser(op sim.OpID) bool {
	_, found := slices.BinarySearch(x.reusers, op)
	return found
}

// Record implements sim.Recorder.
func (x *rejectedReuse) Record(e *sim.Event) {
	m := &e.Msg
	switch {
	case e.Kind == sim.EvDeliver && isHTTPRequest(m.Kind) && decodeHTTPRequest(*m).Key != 0:
		req := decodeHTTPRequest(*m)
		i, found := slices.BinarySearchFunc(x.firsts, req.Key, func(f keyBody, k idemKey) int { return h2Cmp(int64(f.Key), int64(k)) })
		if !found {
			x.firsts = slices.Insert(x.firsts, i, keyBody{Key: req.Key, Body: req.Body, Op: m.Op})
			return
		}
		if x.firsts[i].Body != req.Body && !x.reuser(m.Op) {
			j, _ := slices.BinarySearch(x.reusers, m.Op)
			x.reusers = slices.Insert(x.reusers, j, m.Op)
		}
	case e.Kind == sim.EvSend && isHTTPResponse(m.Kind) && success(decodeHTTPResponse(*m).Status) && x.Why.Held() && x.reuser(m.Op):
		status := decodeHTTPResponse(*m).Status
		x.Why = sim.NewViolation("violation.rejected-reuse.answered", 0,
			fmt.Sprintf("%s reused another operation's key with a different body and was answered %d, not 422", m.Op, status),
			"Op", m.Op.String(), "Status", sim.Itoa(status))
	case e.Kind == sim.EvEffect && x.Why.Held() && x.reuser(m.Op):
		x.Why = sim.NewViolation("violation.rejected-reuse.effect", 0,
			fmt.Sprintf("%s reused another operation's key with a different body and had an effect", m.Op), "Op", m.Op.String())
	}
}

func h2Cmp(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (x *rejectedReuse) Name() string { return "rejected-reuse" }

func (x *rejectedReuse) Clone() sim.Invariant {
	return &rejectedReuse{firsts: slices.Clone(x.firsts), reusers: slices.Clone(x.reusers), Verdict: x.Verdict}
}

func (x *rejectedReuse) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(x.firsts)))
	for _, f := range x.firsts {
		b = binary.AppendVarint(b, int64(f.Key))
		b = binary.AppendVarint(b, int64(f.Body))
	}
	b = binary.AppendUvarint(b, uint64(len(x.reusers)))
	for _, op := range x.reusers {
		b = binary.AppendVarint(b, int64(op))
	}
	return append(b, h2Bool(!x.Why.Held()))
}

func h2Bool(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// h2TableState finds, for every traced table called table of every node, the
// index of the state called state (0 where there is none).
func h2TableState(topo *sim.Topology, table, state string) [][]int32 {
	out := make([][]int32, len(topo.Nodes))
	for n := range topo.Nodes {
		out[n] = make([]int32, len(topo.Nodes[n].Tables))
		for t, spec := range topo.Nodes[n].Tables {
			if !spec.Traced || (table != "" && spec.Name != table) {
				continue
			}
			if i := slices.Index(spec.States, state); i > 0 {
				out[n][t] = int32(i)
			}
		}
	}
	return out
}

func h2StateIn(states [][]int32, node sim.NodeID, table sim.TableID) int32 {
	if int(node) < len(states) && int(table) < len(states[node]) {
		return states[node][table]
	}
	return 0
}

// h2Row names one row of one table of one node.
type h2Row struct {
	Node  sim.NodeID
	Table sim.TableID
	Key   int64
}

// appendTo appends the row's address to a state encoding.
func (r h2Row) appendTo(b []byte) []byte {
	b = append(b, byte(r.Node), byte(r.Table))
	return binary.AppendVarint(b, r.Key)
}

func h2CmpRow(a, b h2Row) int {
	if a.Node != b.Node {
		return int(a.Node) - int(b.Node)
	}
	if a.Table != b.Table {
		return int(a.Table) - int(b.Table)
	}
	return h2Cmp(a.Key, b.Key)
}

// storedResult is a COMPLETED row's response: the result and the body.
type storedResult struct {
	Row      h2Row
	Response int64
	Body     fingerprint
}

// storedResultUnchanged is the invariant "a stored response is never
// overwritten": once a key store row (a traced table called "keys") is
// COMPLETED, every later write to it must keep it COMPLETED with the same
// result and the same body. Deleting it (a TTL) or losing it in a crash (a
// volatile store) is not an overwrite.
type storedResultUnchanged struct {
	completed [][]int32 // node → table → index of COMPLETED (0: not a key store)
	durable   [][]bool
	rows      []storedResult // sorted by row
	roles.Verdict
}

func newStoredResultUnchanged(topo *sim.Topology) *storedResultUnchanged {
	x := &storedResultUnchanged{completed: h2TableState(topo, "keys", "COMPLETED")}
	x.durable = make([][]bool, len(topo.Nodes))
	for n := range topo.Nodes {
		for _, t := range topo.Nodes[n].Tables {
			x.durable[n] = append(x.durable[n], t.Durable)
		}
	}
	return x
}

func (x *storedResultUnchanged) find(r h2Row) (int, bool) {
	return slices.BinarySearchFunc(x.rows, r, func(s storedResult, r h2Row) int { return h2CmpRow(s.Row, r) })
}

// Record implements sim.Recorder.
func (x *storedResultUnchanged) Record(e *sim.Event) {
	switch e.Kind {
	case sim.EvStorePut:
		done := h2StateIn(x.completed, e.Node, e.Table())
		if done == 0 {
			return
		}
		r := h2Row{e.Node, e.Table(), e.Msg.Key}
		i, found := x.find(r)
		switch {
		case !found && e.Rec.State == done:
			k := decodeKeyRow(e.Rec)
			x.rows = slices.Insert(x.rows, i, storedResult{Row: r, Response: k.Response, Body: k.Body})
		case found && x.Why.Held() && (e.Rec.State != done || decodeKeyRow(e.Rec).Response != x.rows[i].Response || decodeKeyRow(e.Rec).Body != x.rows[i].Body):
			x.Why = overwritten(e, x.rows[i])
		}
	case sim.EvStoreDelete:
		if i, found := x.find(h2Row{e.Node, e.Table(), e.Msg.Key}); found {
			x.rows = slices.Delete(x.rows, i, i+1)
		}
	case sim.EvCrash:
		x.rows = slices.DeleteFunc(x.rows, func(s storedResult) bool {
			return s.Row.Node == e.Node && !x.durable[s.Row.Node][s.Row.Table]
		})
	}
}

// overwritten is the violation "the stored result was overwritten": the
// key, the result it held and the row the put e wrote over it.
func overwritten(e *sim.Event, was storedResult) sim.Violation {
	k := decodeKeyRow(e.Rec)
	args := []string{"Key", sim.Itoa(e.Msg.Key), "Result", sim.Itoa(was.Response), "Body", sim.Itoa(was.Body),
		"State", sim.Itoa(k.State), "NewBody", sim.Itoa(k.Body), "NewOp", e.Msg.Op.String()}
	head := fmt.Sprintf("key %d: the stored result %d (body %d) was overwritten by ", e.Msg.Key, was.Response, was.Body)
	if !k.completed() {
		return sim.NewViolation("violation.stored-result-unchanged.pending", 0,
			head+fmt.Sprintf("state %d, pending (body %d) for %s", k.State, k.Body, e.Msg.Op), args...)
	}
	return sim.NewViolation("violation.stored-result-unchanged.result", 0,
		head+fmt.Sprintf("state %d, result %d (body %d) for %s", k.State, k.Response, k.Body, e.Msg.Op),
		append(args, "NewResult", sim.Itoa(k.Response))...)
}

func (x *storedResultUnchanged) Name() string { return "stored-result-unchanged" }

func (x *storedResultUnchanged) Clone() sim.Invariant {
	c := *x
	c.rows = slices.Clone(x.rows)
	return &c
}

func (x *storedResultUnchanged) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(x.rows)))
	for _, s := range x.rows {
		b = s.Row.appendTo(b)
		b = binary.AppendVarint(b, s.Response)
		b = binary.AppendVarint(b, int64(s.Body))
	}
	return append(b, h2Bool(!x.Why.Held()))
}

// unknownBacklog is the metric "max-unknown-backlog": the largest number
// of rows, at any moment, in a state called UNKNOWN (intents whose
// provider call timed out and that are not reconciled yet).
type unknownBacklog struct {
	unknown [][]int32 // node → table → index of UNKNOWN (0: none)
	durable [][]bool
	rows    []h2Row // currently UNKNOWN, sorted
	max     int
}

// Record implements sim.Recorder.
func (x *unknownBacklog) Record(e *sim.Event) {
	switch e.Kind {
	case sim.EvStorePut, sim.EvStoreDelete:
		u := h2StateIn(x.unknown, e.Node, e.Table())
		if u == 0 {
			return
		}
		r := h2Row{e.Node, e.Table(), e.Msg.Key}
		i, found := slices.BinarySearchFunc(x.rows, r, h2CmpRow)
		now := e.Kind == sim.EvStorePut && e.Rec.State == u
		switch {
		case now && !found:
			x.rows = slices.Insert(x.rows, i, r)
			x.max = max(x.max, len(x.rows))
		case !now && found:
			x.rows = slices.Delete(x.rows, i, i+1)
		}
	case sim.EvCrash:
		x.rows = slices.DeleteFunc(x.rows, func(r h2Row) bool { return r.Node == e.Node && !x.durable[r.Node][r.Table] })
	}
}

// newUnknownBacklog finds the UNKNOWN states and the durable tables of topo.
func newUnknownBacklog(topo *sim.Topology) unknownBacklog {
	x := unknownBacklog{unknown: h2TableState(topo, "", "UNKNOWN")}
	x.durable = make([][]bool, len(topo.Nodes))
	for n := range topo.Nodes {
		for _, t := range topo.Nodes[n].Tables {
			x.durable[n] = append(x.durable[n], t.Durable)
		}
	}
	return x
}

func (x *unknownBacklog) Name() string   { return "max-unknown-backlog" }
func (x *unknownBacklog) Value() float64 { return float64(x.max) }

// statusCount is a metric counting the responses a service sent with one
// status code, e.g. the 409s of requests that found their key in flight.
type statusCount struct {
	name   string
	status int32
	n      int
}

// Record implements sim.Recorder.
func (x *statusCount) Record(e *sim.Event) {
	if e.Kind == sim.EvSend && isHTTPResponse(e.Msg.Kind) && e.Msg.Status == x.status {
		x.n++
	}
}

func (x *statusCount) Name() string   { return x.name }
func (x *statusCount) Value() float64 { return float64(x.n) }

func registerChecks(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "rejected-reuse",
		Doc:  "a request that reuses a key with a different body is answered 422 and has no effect",
		New:  func(*sim.Topology) sim.Invariant { return &rejectedReuse{} },
	})
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "stored-result-unchanged",
		Doc:  "a COMPLETED key keeps its first stored result and body: nothing overwrites it",
		New:  func(topo *sim.Topology) sim.Invariant { return newStoredResultUnchanged(topo) },
	})
	c.RegisterMetric(&roles.MetricSpec{
		Name: "max-unknown-backlog",
		Unit: "payments",
		Doc:  "the most outcomes in state UNKNOWN at once: bounded when the reconcile rate exceeds the rate unknowns arrive at, growing with the run otherwise",
		New: func(topo *sim.Topology) sim.Metric {
			x := newUnknownBacklog(topo)
			return &x
		},
	})
	for _, s := range []struct {
		name   string
		status int32
		doc    string
	}{
		{"responses-409", roles.StatusConflict, "responses 409 Conflict: the key was still in flight"},
		{"responses-422", roles.StatusUnprocessable, "responses 422 Unprocessable: the key was reused with another body"},
		{"responses-403", roles.StatusForbidden, "responses 403 Forbidden: rejected by the rate limit before processing"},
		{"responses-504", roles.StatusGatewayTimeout, "responses 504: the provider's core did not answer in time (charged or not)"},
	} {
		c.RegisterMetric(&roles.MetricSpec{Name: s.name, Unit: "responses", Doc: s.doc, New: func(*sim.Topology) sim.Metric {
			return &statusCount{name: s.name, status: s.status}
		}})
	}
}

// success reports whether an HTTP status is a 2xx.
func success(status int32) bool { return status >= 200 && status < 300 }
