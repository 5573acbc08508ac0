package live

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// intentRun is what a run of ambiguous-external-outcome adds to live:
// the call deadline on the service → gateway link, the reconciler, and
// the intents' history for the invariants.
type intentRun struct {
	calls *callDeadline
	rec   *reconciler
}

// intentParts finds the intent-service and its reconciler of cfg, if any.
func intentParts(cfg *sim.Config, p *parts) error {
	for i, n := range cfg.Nodes {
		if r, ok := n.(*payments.Reconciler); ok {
			p.reconciler, p.reconcilerRole = sim.NodeID(i), r
		}
	}
	if p.reconcilerRole == nil || p.reconcilerRole.Service != p.service || p.intent.Reconciler != p.reconciler ||
		p.intent.Provider != p.gateway || p.reconcilerRole.Provider != p.gateway {
		return errNoParts
	}
	t := cfg.Topology
	for name, k := range map[string]*sim.MsgKind{"unknown-outcome": &p.unknown, "resolved": &p.resolved} {
		id, ok := t.MessageByName(name)
		if !ok {
			return fmt.Errorf("live: the topology has no message %q", name)
		}
		*k = id
	}
	return nil
}

// startIntent wraps the service → gateway fault layer back with the call
// deadline and starts the reconciler's listener; the service's URL is
// asked of target when needed.
func startIntent(p *parts, dec *Decider, back *Proxy, gatewayURL string, target func() string,
	tick time.Duration, done <-chan struct{}, cleanups *[]func()) (*intentRun, string, error) {
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}, Timeout: gatewayCallTimeout + 10*time.Second}
	run := &intentRun{
		calls: &callDeadline{Proxy: back, timeout: time.Duration(p.intent.CallTimeout) * tick, service: target, client: client,
			route: route{from: p.service, to: p.gateway, req: p.charge, resp: p.chargeResult}},
		rec: &reconciler{dec: dec, act: back.Act, tick: tick, every: time.Duration(p.reconcilerRole.Every) * tick,
			self: p.reconciler, service: p.service, gateway: p.gateway,
			unknown: p.unknown, lookup: p.lookup, lookupResult: p.lookupResult, resolved: p.resolved,
			provider: gatewayURL, target: target, client: client, done: done, backlog: map[string]*queued{}},
	}
	url, err := serve(run.rec, cleanups)
	if err != nil {
		return nil, "", err
	}
	return run, url, nil
}

// idle reports whether no call, late answer or reconciliation is under way.
func (r *intentRun) idle() bool { return r == nil || (r.calls.Idle() && r.rec.Idle()) }

// replayIntentHistory records every write to payment_intents (the
// intent_history table its triggers fill) as the simulator's store event
// on the service's keys table, at the run's virtual time the service
// wrote it: the backlog of UNKNOWN intents and the rate they arrive at are
// judged from the database, by the scenario's own invariant and metrics.
func replayIntentHistory(ctx context.Context, db *DB, dec *Decider, topo *sim.Topology, service sim.NodeID) error {
	spec := &topo.Nodes[service]
	table := slices.IndexFunc(spec.Tables, func(t sim.TableSpec) bool { return t.Name == "keys" })
	if table < 0 || !spec.Tables[table].Traced {
		return nil
	}
	states := spec.Tables[table].States
	rows, err := db.Query(ctx, "SELECT idempotency_key, op, status, request_body, response_code, response_body, at_ms FROM intent_history ORDER BY at_ms, seq")
	if err != nil {
		return fmt.Errorf("live: intent history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, status, reqBody string
		var op int32
		var at int64
		var code sql.NullInt64
		var respBody sql.NullString
		if err := rows.Scan(&key, &op, &status, &reqBody, &code, &respBody, &at); err != nil {
			return fmt.Errorf("live: intent history: %w", err)
		}
		var req paymentRequest
		json.Unmarshal([]byte(reqBody), &req)
		e := sim.Event{Kind: sim.EvStorePut, Node: service, Peer: sim.NoNode, Label: uint16(table),
			Msg: sim.Message{Key: dec.KeyID(key), Op: sim.OpID(op)},
			Rec: sim.Record{State: int32(max(slices.Index(states, status), 0)), Aux: req.Amount, Value: int64(op)}}
		if status == IntentCompleted {
			var resp paymentResponse
			json.Unmarshal([]byte(respBody.String), &resp)
			e.Rec.Status, e.Rec.Value = int32(code.Int64), resp.TxnID
		}
		dec.recordAt(e, sim.Time(at))
	}
	return rows.Err()
}

// recordAt records e stamped with the run's virtual time at (ticks), not
// now: an event read back from the database, which says when it happened.
func (d *Decider) recordAt(e sim.Event, at sim.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e.At = at
	e.Seq = d.seq
	d.seq++
	if d.rec != nil {
		d.rec.Record(&e)
	}
}

// inTimeOrder sorts the events of t by their virtual time, stably: the
// intents' writes, read back from the database after the run, take their
// place in the timeline.
func inTimeOrder(t *sim.Trace) {
	if t != nil {
		slices.SortStableFunc(t.Events, func(a, b sim.Event) int { return cmp.Compare(a.At, b.At) })
	}
}

// noCrashPoint refuses a crash (or a pause) of the intent-service: the
// simulator's has no crash point, so it draws none either.
func noCrashPoint(crash bool) error {
	flag := "--pause"
	if crash {
		flag = "--crash"
	}
	return fmt.Errorf("%w: %s: the intent-service has no crash point (the simulator's has none either)", ErrNotLive, flag)
}
