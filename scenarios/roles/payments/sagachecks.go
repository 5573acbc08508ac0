package payments

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// sagaSeries is the number of saga participants whose reservations the
// invariant balances: flights (series 1), hotels (2), trip charges (3).
const sagaSeries = 3

// sagaHoldings is the invariant "a trip is all or nothing": when the run
// is over, every operation holds either one reservation at every
// participant (a completed saga) or none anywhere (never started, or
// compensated) — never a flight without its hotel, never two flights.
// Reservations are effects on flights, hotels and trip-charges; a
// cancellation is an effect on cancellations with the record id it undoes
// (series×10 000 + n tells the participant).
type sagaHoldings struct {
	net []int32 // by op·sagaSeries + series-1: reservations held
}

func (x *sagaHoldings) slot(op sim.OpID, series int64) int {
	for len(x.net) < (int(op)+1)*sagaSeries { // whole blocks: every op has all its participants
		x.net = append(x.net, 0)
	}
	return int(op)*sagaSeries + min(max(int(series), 1), sagaSeries) - 1
}

// Record implements sim.Recorder.
func (x *sagaHoldings) Record(e *sim.Event) {
	if e.Kind != sim.EvEffect || e.Msg.Op <= 0 {
		return
	}
	switch sim.SinkID(e.Label) {
	case SinkFlights, SinkHotels, SinkTripCharges:
		x.net[x.slot(e.Msg.Op, e.Msg.Value/10_000)]++
	case SinkCancellations:
		x.net[x.slot(e.Msg.Op, e.Msg.Value/10_000)]--
	}
}

func (x *sagaHoldings) Name() string { return "all-or-nothing" }

// Violation judges a finished run: a run cut short may be mid-saga.
func (x *sagaHoldings) Violation(finished bool) string { return x.ViolationDetail(finished).English }

// ViolationDetail implements sim.ViolationDetailer.
func (x *sagaHoldings) ViolationDetail(finished bool) sim.Violation {
	for i := 0; i+sagaSeries <= len(x.net); i += sagaSeries {
		held := x.net[i : i+sagaSeries]
		op := sim.OpID(i / sagaSeries)
		for s, n := range held {
			if n > 1 {
				return sim.NewViolation("violation.all-or-nothing.twice", int(n),
					fmt.Sprintf("%s holds %d reservations at %s", op, n, sagaParticipantSinks[s]),
					"Op", op.String(), "Sink", sagaParticipantSinks[s])
			}
		}
		if finished && slices.Min(held) != slices.Max(held) {
			return sim.NewViolation("violation.all-or-nothing.half", 0,
				fmt.Sprintf("%s ended half done: flights %d, hotels %d, trip-charges %d held", op, held[0], held[1], held[2]),
				"Op", op.String(), "Flights", sim.Itoa(held[0]), "Hotels", sim.Itoa(held[1]), "Charges", sim.Itoa(held[2]))
		}
	}
	return sim.Violation{}
}

func (x *sagaHoldings) Clone() sim.Invariant { return &sagaHoldings{net: slices.Clone(x.net)} }

func (x *sagaHoldings) AppendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(x.net)))
	for _, n := range x.net {
		b = binary.AppendVarint(b, int64(n))
	}
	return b
}

func registerSagachecks(c *roles.Catalog) {
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "all-or-nothing",
		Doc:  "when the run is over, every trip holds one reservation at every saga participant, or none anywhere",
		New:  func(*sim.Topology) sim.Invariant { return &sagaHoldings{} },
	})
}
