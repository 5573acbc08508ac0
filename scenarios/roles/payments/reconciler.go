package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Reconciler works off the backlog of unknown outcomes at a fixed pace:
// every Every it asks the provider, by the intent's own key, about the
// entry that has waited longest, and reports the answer to the service.
// Its rate is r = 1/Every; if unknown outcomes arrive faster than that, the
// backlog grows without bound.
//
// An entry leaves the backlog only when the provider answers; one whose
// answer has not come back yet goes to the end of the line (it is asked
// again after the others). The reconciler ticks only while its backlog is
// not empty, so a run with nothing to reconcile ends.
type Reconciler struct {
	Service  sim.NodeID
	Provider sim.NodeID
	Every    sim.Time
}

const (
	reconcileBacklog sim.TableID = iota // key → backlogRow (QUEUED); its At orders the line
	reconcileTicking                    // row 0 present: a tick is scheduled
)

// Start restarts the pace when a backlog survived a restart.
func (c *Reconciler) Start(ctx *sim.Context) {
	if ctx.Rows(reconcileBacklog).Len() > 0 {
		c.arm(ctx)
	}
}

func (c *Reconciler) arm(ctx *sim.Context) {
	if _, ok := ctx.Get(reconcileTicking, 0, 0); ok {
		return
	}
	ctx.Put(reconcileTicking, 0, 0, sim.Record{})
	ctx.After(c.Every, sim.Timer{Kind: TimerReconcile})
}

// Receive queues an unknown outcome, or reports the provider's answer.
func (c *Reconciler) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgUnknown:
		u := decodeOutcomeReport(m)
		ctx.Put(reconcileBacklog, int64(u.Key), m.Op, backlogRow{Op: m.Op, Body: u.Body}.encode())
		c.arm(ctx)
	case MsgLookupResult:
		res := decodeProviderCall(m)
		if _, ok := ctx.Get(reconcileBacklog, int64(res.Key), m.Op); !ok {
			return // answered already
		}
		ctx.Delete(reconcileBacklog, int64(res.Key), m.Op)
		ctx.Send(c.Service, outcomeReport{Key: res.Key, Status: res.Status, TxnID: res.TxnID}.encode(envelope{Kind: MsgResolved, Op: m.Op}))
	}
}

// Timer asks about the entry that has waited longest.
func (c *Reconciler) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerReconcile {
		return
	}
	ctx.Delete(reconcileTicking, 0, 0)
	rows := ctx.Rows(reconcileBacklog)
	if rows.Len() == 0 {
		return
	}
	oldest, first := 0, backlogRow{}
	for i := 0; i < rows.Len(); i++ {
		if _, rec := rows.At(i); i == 0 || rec.At < first.At {
			oldest, first = i, decodeBacklogRow(rec)
		}
	}
	key, rec := rows.At(oldest)
	r := decodeBacklogRow(rec)
	r.At = 0 // to the end of the line until answered
	ctx.Put(reconcileBacklog, key, r.Op, r.encode())
	ctx.Send(c.Provider, providerCall{Key: idemKey(key), Body: r.Body}.encode(envelope{Kind: MsgLookup, Op: r.Op}))
	c.arm(ctx)
}

// buildReconciler builds a reconciler node from its options, each declared where it is read.
func buildReconciler(a *roles.Args) (sim.Node, []sim.TableSpec) {
	c := &Reconciler{
		Service:  a.Node("service", "the service whose unknown outcomes it resolves"),
		Provider: a.Node("provider", "the provider it asks, by the intent's key"),
		Every:    a.Duration("every", "200ms", "time between two lookups: the reconcile rate is 1/every"),
	}
	if c.Every <= 0 {
		a.Fail("every", "every: the reconciler needs a pace above 0")
	}
	return c, []sim.TableSpec{roles.StoreTable("backlog", true, []string{"", "QUEUED"}), {Name: "ticking"}}
}
