package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// SagaParticipant is one service a saga calls: it reserves (a flight seat,
// a hotel room, a charge) and cancels a reservation when the saga
// compensates. Every call carries a step key and is done at most once per
// key: the key and the reservation are written together, and a repeat gets
// the first answer back. A reservation is an effect on the participant's
// sink; a cancellation an effect on cancellations (same record id).
//
// SoldOutEvery > 0 makes the participant refuse every n-th operation's
// reservation (422: sold out) — the business failure that makes a saga
// compensate; a refusal is remembered under its key like a success.
//
// A participant marked crashable may crash at PointAfterStep: the step and
// its key are written (durable), the answer is not sent. The orchestrator's
// step timeout calls again with the same step key, and the restarted
// participant answers from the stored row without doing the step again.
type SagaParticipant struct {
	answerer
	Sink         sim.SinkID
	Series       int64 // record ids are series×10 000 + counter
	SoldOutEvery int64
}

const (
	participantKeys    sim.TableID = iota // step key → reservationRow
	participantCounter                    // row 0: last record id
)

// Receive performs a reserve or a cancel once per step key and answers.
func (p *SagaParticipant) Receive(ctx *sim.Context, m sim.Message) {
	if m.Kind != MsgSagaStep {
		return
	}
	call := decodeSagaStepCall(m)
	if rec, done := ctx.Get(participantKeys, int64(call.Key), m.Op); done {
		p.answer(ctx, m, call, decodeReservationRow(rec))
		return
	}
	step, action := sagaStepOf(call.Key)
	var row reservationRow
	switch action {
	case sagaCancel:
		row = reservationRow{State: reservationCancelled}
		held, ok := ctx.Get(participantKeys, int64(sagaStepKey(call.Saga, step, sagaReserve)), m.Op)
		if r := decodeReservationRow(held); ok && r.State == reservationHeld {
			r.State = reservationCancelled
			ctx.Put(participantKeys, int64(sagaStepKey(call.Saga, step, sagaReserve)), m.Op, r.encode())
			ctx.Effect(SinkCancellations, m.Op, r.RecordID)
			row.RecordID = r.RecordID
		}
	default:
		if p.SoldOutEvery > 0 && int64(m.Op)%p.SoldOutEvery == 0 {
			row = reservationRow{State: reservationRefused}
			break
		}
		rec, _ := ctx.Get(participantCounter, 0, m.Op)
		c := decodeCounterRow(rec)
		c.Last++
		ctx.Put(participantCounter, 0, m.Op, c.encode())
		row = reservationRow{State: reservationHeld, RecordID: p.Series*10_000 + c.Last}
		ctx.Effect(p.Sink, m.Op, row.RecordID)
	}
	ctx.Put(participantKeys, int64(call.Key), m.Op, row.encode())
	if ctx.CrashPoint(PointAfterStep, &m) {
		return // done and durable, unanswered: the orchestrator calls again
	}
	p.answer(ctx, m, call, row)
}

func (p *SagaParticipant) answer(ctx *sim.Context, m sim.Message, call sagaStepCall, row reservationRow) {
	call.Status, call.RecordID = roles.StatusOK, row.RecordID
	if row.State == reservationRefused {
		call.Status = statusSoldOut
	}
	ctx.Send(m.From, call.encode(envelope{Kind: MsgSagaStepResult, Op: m.Op, Attempt: m.Attempt}))
}

var sagaParticipantSinks = []string{"flights", "hotels", "trip-charges"}

// buildSagaparticipant builds a saga-participant node from its options, each declared where it is read.
func buildSagaparticipant(a *roles.Args) (sim.Node, []sim.TableSpec) {
	p := &SagaParticipant{}
	p.Sink, p.Series = sinkOption(a, sagaParticipantSinks, []sim.SinkID{SinkFlights, SinkHotels, SinkTripCharges}, "what it reserves")
	p.SoldOutEvery = a.Int("sold-out-every", 0, 0, 1000, "refuse the reservation of every n-th operation (0 = never): the business failure a saga compensates")
	return p, []sim.TableSpec{
		roles.StoreTable("reservations", true, []string{"", "HELD", "CANCELLED", "REFUSED"}),
		{Name: "counter", Durable: true},
	}
}
