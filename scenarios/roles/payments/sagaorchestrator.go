package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// SagaOrchestrator runs POST /orders (book a trip) as a saga over its
// participants, in order: reserve the flight, the hotel, charge the trip.
// Each step call carries a step key derived from the saga id, so a
// participant does a repeated call once; a call not answered within
// StepTimeout is sent again. A step refused (sold out) turns the saga
// around: the steps done are cancelled in reverse order (compensation),
// and the order is answered 422. A completed saga is answered 201 with its
// saga id.
//
// The saga log — the saga's id, its state and the step it is at — is
// written before each step is called and after each answer. Durable (a
// table that survives a crash), it lets a restarted orchestrator resume
// every unfinished saga at its step, with the same step keys; and under
// the idempotent semantics the order's Idempotency-Key finds the saga
// again, so a client's retry joins it (409 while it runs, the stored
// answer when it is done). Volatile (memory), a crash forgets every saga:
// nothing resumes, a compensation in progress is never finished, and a
// client's retry starts a new saga with a new id — new step keys, so the
// participants do every step again. Under at-least-once the client sends no
// key, and every retry is a new saga.
type SagaOrchestrator struct {
	Client       sim.NodeID
	Participants []sim.NodeID
	StepTimeout  sim.Time
}

const (
	sagaLog     sim.TableID = iota // saga id → sagaRow
	sagaKeys                       // order Idempotency-Key → saga id (Value)
	sagaCounter                    // row 0: the last saga id; row -id: the op of saga id (durable: ids are never reused)
)

// Start resumes every unfinished saga of a durable log (a volatile log is
// empty after a crash).
func (o *SagaOrchestrator) Start(ctx *sim.Context) {
	log := ctx.Rows(sagaLog)
	var resume []sagaRow
	for i := 0; i < log.Len(); i++ {
		if _, rec := log.At(i); decodeSagaRow(rec).State == sagaRunning || decodeSagaRow(rec).State == sagaCompensating {
			resume = append(resume, decodeSagaRow(rec))
		}
	}
	for _, row := range resume {
		o.call(ctx, o.opOf(ctx, row.Saga), row, 1)
	}
}

// opOf returns the operation saga id belongs to (the ops table's key).
func (o *SagaOrchestrator) opOf(ctx *sim.Context, saga int64) sim.OpID {
	rec, _ := ctx.Get(sagaCounter, -saga, 0)
	return sim.OpID(rec.Value)
}

// Receive handles an order, or a participant's answer.
func (o *SagaOrchestrator) Receive(ctx *sim.Context, m sim.Message) {
	switch m.Kind {
	case MsgOrder:
		o.order(ctx, m, decodeHTTPRequest(m))
	case MsgSagaStepResult:
		o.stepDone(ctx, m, decodeSagaStepCall(m))
	}
}

func (o *SagaOrchestrator) order(ctx *sim.Context, m sim.Message, req httpRequest) {
	if roles.Idempotent(ctx.Semantics()) && req.Key != 0 {
		if rec, known := ctx.Get(sagaKeys, int64(req.Key), m.Op); known {
			srec, _ := ctx.Get(sagaLog, rec.Value, m.Op)
			if !o.replyOutcome(ctx, m.Op, m.Attempt, decodeSagaRow(srec)) {
				o.reply(ctx, m.Op, m.Attempt, httpResponse{Status: roles.StatusConflict})
			}
			return
		}
	}
	c, _ := ctx.Get(sagaCounter, 0, m.Op)
	id := c.Value + 1
	ctx.Put(sagaCounter, 0, m.Op, sim.Record{Value: id})
	ctx.Put(sagaCounter, -id, m.Op, sim.Record{Value: int64(m.Op)}) // saga id → op, durable with the counter
	row := sagaRow{State: sagaRunning, Step: 0, Saga: id, Attempt: m.Attempt}
	ctx.Put(sagaLog, id, m.Op, row.encode())
	if roles.Idempotent(ctx.Semantics()) && req.Key != 0 {
		ctx.Put(sagaKeys, int64(req.Key), m.Op, sim.Record{Value: id})
	}
	if ctx.CrashPoint(PointAfterSagaStart, &m) {
		return
	}
	o.call(ctx, m.Op, row, 1)
}

// call sends the current step of saga row (a reserve while running, a
// cancel while compensating) and arms its deadline.
func (o *SagaOrchestrator) call(ctx *sim.Context, op sim.OpID, row sagaRow, n int32) {
	action := sagaReserve
	if row.State == sagaCompensating {
		action = sagaCancel
	}
	key := sagaStepKey(row.Saga, row.Step, action)
	ctx.Send(o.Participants[row.Step], sagaStepCall{Key: key, Saga: row.Saga}.encode(envelope{Kind: MsgSagaStep, Op: op, Attempt: n}))
	ctx.After(o.StepTimeout, sagaDeadline{Saga: row.Saga, StepAction: row.Step*10 + action, Call: n}.timer(op))
}

// Timer calls a step again when its answer did not come in time.
func (o *SagaOrchestrator) Timer(ctx *sim.Context, t sim.Timer) {
	if t.Kind != TimerSagaStep {
		return
	}
	d := decodeSagaDeadline(t)
	rec, ok := ctx.Get(sagaLog, d.Saga, t.Op)
	row := decodeSagaRow(rec)
	if !ok || (row.State != sagaRunning && row.State != sagaCompensating) || row.Step*10+o.action(row) != d.StepAction {
		return // answered meanwhile
	}
	o.call(ctx, t.Op, row, d.Call+1)
}

func (o *SagaOrchestrator) action(row sagaRow) int32 {
	if row.State == sagaCompensating {
		return sagaCancel
	}
	return sagaReserve
}

// stepDone advances the saga on an answer to its current step; a stale
// or duplicate answer, or one for a saga the log no longer has, is
// ignored.
func (o *SagaOrchestrator) stepDone(ctx *sim.Context, m sim.Message, res sagaStepCall) {
	rec, ok := ctx.Get(sagaLog, res.Saga, m.Op)
	row := decodeSagaRow(rec)
	step, action := sagaStepOf(res.Key)
	if !ok || step != row.Step || action != o.action(row) || row.State == sagaCompleted || row.State == sagaAborted {
		return
	}
	switch {
	case row.State == sagaRunning && res.Status == roles.StatusOK:
		row.Step++
		if int(row.Step) == len(o.Participants) {
			row.State = sagaCompleted
		}
	case row.State == sagaRunning: // refused: compensate the steps done
		row.State, row.Step = sagaCompensating, row.Step-1
	default: // a cancel done
		row.Step--
	}
	if row.State == sagaCompensating && row.Step < 0 {
		row.State, row.Step = sagaAborted, 0
	}
	ctx.Put(sagaLog, row.Saga, m.Op, row.encode())
	if ctx.CrashPoint(PointBetweenSteps, &m) {
		return
	}
	if !o.replyOutcome(ctx, m.Op, row.Attempt, row) {
		o.call(ctx, m.Op, row, 1)
	}
}

// replyOutcome answers the order of a finished saga — 201 with the saga
// id when it completed, sold out when it aborted — and reports whether
// the saga was finished.
func (o *SagaOrchestrator) replyOutcome(ctx *sim.Context, op sim.OpID, attempt int32, row sagaRow) bool {
	switch row.State {
	case sagaCompleted:
		o.reply(ctx, op, attempt, httpResponse{Status: roles.StatusCreated, Result: row.Saga})
	case sagaAborted:
		o.reply(ctx, op, attempt, httpResponse{Status: statusSoldOut})
	default:
		return false
	}
	return true
}

func (o *SagaOrchestrator) reply(ctx *sim.Context, op sim.OpID, attempt int32, resp httpResponse) {
	ctx.Send(o.Client, resp.encode(envelope{Kind: MsgOrderResponse, Op: op, Attempt: attempt}))
}

// buildSagaorchestrator builds a saga-orchestrator node from its options, each declared where it is read.
func buildSagaorchestrator(a *roles.Args) (sim.Node, []sim.TableSpec) {
	o := &SagaOrchestrator{
		Client: a.Node("client", "where answers go"),
		Participants: []sim.NodeID{
			a.Node("flights", "the first participant: reserves a flight"),
			a.Node("hotels", "the second participant: reserves a hotel"),
			a.Node("charges", "the last participant: charges the trip"),
		},
		StepTimeout: a.PositiveDuration("step-timeout", "200ms", "how long it waits for a step's answer before calling it again"),
	}
	durable := a.Enum("log", "durable", roles.StoreValues, "the saga log: a durable table that survives a crash, or memory") == "durable"
	return o, []sim.TableSpec{
		roles.StoreTable("sagas", durable, sagaStates),
		{Name: "saga-keys", Durable: durable, Traced: true},
		{Name: "saga-ids", Durable: true},
	}
}
