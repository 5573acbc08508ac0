package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oncesim/once/sim"
)

// resolvedBase numbers the reconciler's reports inside the service
// (activity ids (op, -(resolvedBase+n))), apart from the late answers'
// (op, -call).
const resolvedBase = 1 << 20

// reconciler is ambiguous-external-outcome's reconciler, run as the
// simulator's role does, on the run's virtual clock: the service hands it
// the key of every intent it marked UNKNOWN (POST /unknown); while its
// backlog is not empty it ticks every Every, asks the provider (GET
// /charges/lookup?key=…) about the entry that has waited longest — which
// goes to the end of the line until answered — and reports the answer to
// the service (POST /intents/resolved), which completes the intent or
// charges again under the same key. Its links (service ↔ reconciler,
// reconciler ↔ provider) are decided by the Decider as any message: their
// delays are slept, their faults applied.
type reconciler struct {
	dec                                     *Decider
	act                                     *activity
	tick                                    time.Duration
	every                                   time.Duration
	self                                    sim.NodeID
	service                                 sim.NodeID
	gateway                                 sim.NodeID
	unknown, lookup, lookupResult, resolved sim.MsgKind
	provider                                string        // the gateway's base URL
	target                                  func() string // the service's base URL, "" while it is down
	client                                  *http.Client
	done                                    <-chan struct{}

	busy    atomic.Int64 // goroutines at work: a tick armed, a message on its way
	mu      sync.Mutex
	backlog map[string]*queued
	seq     int64
	ticking bool
	reports int32
	err     error
}

// queued is one entry of the backlog: its place in line.
type queued struct {
	op  int32
	at  time.Duration
	seq int64
}

// Idle reports whether the reconciler has nothing armed and nothing on its
// way.
func (c *reconciler) Idle() bool { return c.busy.Load() == 0 }

// Err is the first failure of a report to the service.
func (c *reconciler) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *reconciler) spawn(f func()) {
	c.busy.Add(1)
	c.dec.clk.spawn(func() { // a party at work on the run's clock
		defer c.busy.Add(-1)
		f()
	})
}

// send decides the fate of m and, unless it is lost, runs arrive when its
// delay has passed on the run's clock, after recording the delivery.
func (c *reconciler) send(m sim.Message, arrive func()) {
	sent := c.dec.Elapsed()
	fate := c.dec.Transmit(m)
	if fate.Drop {
		return
	}
	c.spawn(func() {
		if c.dec.SleepUntil(sent+time.Duration(fate.Delay)*c.tick, c.done, nil) {
			c.dec.Record(sim.Event{Kind: sim.EvDeliver, Node: m.To, Peer: m.From, Msg: m})
			arrive()
		}
	})
}

// ServeHTTP takes POST /unknown from the service.
func (c *reconciler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.dec.clk.enter() // a party at work on the run's clock
	defer c.dec.clk.exit()
	if r.Method != http.MethodPost || r.URL.Path != PathUnknown {
		http.NotFound(w, r)
		return
	}
	var u unknownReport
	if err := readJSON(r.Body, &u); err != nil || u.Key == "" {
		writeProblem(w, http.StatusBadRequest, "want {\"key\": …, \"op\": …}")
		return
	}
	m := sim.Message{From: c.service, To: c.self, Kind: c.unknown, Op: sim.OpID(u.Op), Key: c.dec.KeyID(u.Key)}
	c.send(m, func() { c.queue(u.Key, u.Op) })
	w.WriteHeader(http.StatusAccepted)
}

// put records the backlog row of key (QUEUED), or its removal.
func (c *reconciler) put(key string, op int32, gone bool) {
	e := sim.Event{Kind: sim.EvStorePut, Node: c.self, Peer: sim.NoNode, Msg: sim.Message{Key: c.dec.KeyID(key), Op: sim.OpID(op)},
		Rec: sim.Record{State: 1, Value: int64(op)}}
	if gone {
		e.Kind, e.Rec = sim.EvStoreDelete, sim.Record{}
	}
	c.dec.Record(e)
}

// queue puts key at the end of the line and arms the tick.
func (c *reconciler) queue(key string, op int32) {
	c.mu.Lock()
	c.seq++
	c.backlog[key] = &queued{op: op, at: c.dec.Elapsed(), seq: c.seq}
	c.mu.Unlock()
	c.put(key, op, false)
	c.arm()
}

// arm schedules the next tick, unless one is scheduled.
func (c *reconciler) arm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ticking {
		return
	}
	c.ticking = true
	at := c.dec.Elapsed() + c.every
	c.spawn(func() {
		if c.dec.SleepUntil(at, c.done, nil) {
			c.tickNow()
		}
	})
}

// tickNow asks the provider about the entry that has waited longest.
func (c *reconciler) tickNow() {
	c.mu.Lock()
	c.ticking = false
	var key string
	var first *queued
	for k, q := range c.backlog {
		if first == nil || q.at < first.at || (q.at == first.at && q.seq < first.seq) {
			key, first = k, q
		}
	}
	if first == nil {
		c.mu.Unlock()
		return
	}
	c.seq++
	first.at, first.seq = c.dec.Elapsed(), c.seq // to the end of the line until answered
	op := first.op
	c.mu.Unlock()
	c.put(key, op, false)
	m := sim.Message{From: c.self, To: c.gateway, Kind: c.lookup, Op: sim.OpID(op), Key: c.dec.KeyID(key)}
	c.send(m, func() { c.ask(key, op) })
	c.arm()
}

// ask looks key up at the gateway (its work takes no time on the run's
// clock) and sends the answer back.
func (c *reconciler) ask(key string, op int32) {
	status, txn := c.lookupAt(key)
	m := sim.Message{From: c.gateway, To: c.self, Kind: c.lookupResult, Op: sim.OpID(op), Key: c.dec.KeyID(key),
		Status: int32(status), Value: txn}
	c.send(m, func() { c.answered(key, op, status, txn) })
}

func (c *reconciler) lookupAt(key string) (int, int64) {
	c.dec.clk.hold()
	defer c.dec.clk.release()
	resp, err := c.client.Get(c.provider + PathLookup + "?key=" + url.QueryEscape(key))
	if err != nil {
		c.fail(fmt.Errorf("live: reconciler: lookup %s: %w", key, err))
		return http.StatusBadGateway, 0
	}
	defer resp.Body.Close()
	var cr chargeResponse
	if resp.StatusCode == http.StatusOK {
		readJSON(resp.Body, &cr)
	}
	return resp.StatusCode, cr.TxnID
}

// answered reports the provider's answer about key to the service, if
// key is still in the backlog.
func (c *reconciler) answered(key string, op int32, status int, txn int64) {
	c.mu.Lock()
	_, ok := c.backlog[key]
	delete(c.backlog, key)
	c.mu.Unlock()
	if !ok {
		return // answered already
	}
	c.put(key, op, true)
	m := sim.Message{From: c.self, To: c.service, Kind: c.resolved, Op: sim.OpID(op), Key: c.dec.KeyID(key), Status: int32(status), Value: txn}
	c.send(m, func() { c.report(resolution{Key: key, Op: op, Status: status, TxnID: txn}) })
}

// report delivers a finding to the service: a request inside it, which
// may charge again (and wait for that call) before it answers.
func (c *reconciler) report(res resolution) {
	target := c.target()
	if target == "" {
		return // the service is down: the report is lost with it
	}
	c.mu.Lock()
	c.reports++
	id := reqID{res.Op, -(resolvedBase + c.reports)}
	c.mu.Unlock()
	c.act.enter(id)
	defer c.act.leave(id)
	body, _ := json.Marshal(res)
	req, err := http.NewRequest(http.MethodPost, target+PathResolved, bytes.NewReader(body))
	if err != nil {
		c.fail(err)
		return
	}
	setIdentity(req.Header, id.op, id.attempt)
	req.Header.Set(HeaderNow, strconv.FormatInt(int64(c.dec.Elapsed()/c.tick), 10))
	req.Header.Set("Content-Type", "application/json")
	c.dec.clk.exit() // the report runs service code: its running state holds the clock
	resp, err := c.client.Do(req)
	c.dec.clk.enter()
	if err != nil {
		c.fail(fmt.Errorf("live: reconciler: report %s: %w", res.Key, err))
		return
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		c.fail(fmt.Errorf("live: reconciler: report %s: the service answered %s: %s", res.Key, resp.Status, msg))
	}
}

func (c *reconciler) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
}
