// Package payments is the family of roles behind POST /payments and POST
// /orders: HTTP clients, the payment service and its card gateway, the
// server-issued key, the intent service and its reconciler, the rate-limited
// provider and its backoff client, the order service and its step services.
// The services that speak the Idempotency-Key protocol share one handler
// (idempotency.go).
package payments

import "github.com/oncesim/once/sim"

// Message kinds, timers, sinks and crash points of the payments family:
// POST /payments through a service to a card gateway, server-issued keys,
// reconciliation of unknown outcomes, rate limits and multi-step orders.
var (
	MsgPayRequest    sim.MsgKind // client → service: POST /payments [Idempotency-Key]
	MsgPayResponse   sim.MsgKind // service → client: status and transaction id
	MsgCharge        sim.MsgKind // service → gateway: charge the card
	MsgChargeResult  sim.MsgKind // gateway → service: transaction id
	MsgLookup        sim.MsgKind // service → gateway: what happened to this key?
	MsgLookupResult  sim.MsgKind // gateway → service: charged (txn) or not found
	MsgOrder         sim.MsgKind // client → order service: POST /orders [Idempotency-Key]
	MsgOrderResponse sim.MsgKind // order service → client
	MsgStep          sim.MsgKind // order service → a step service: do one step [step key]
	MsgStepAck       sim.MsgKind // step service → order service: step done (its record id)
	MsgUnknown       sim.MsgKind // intent service → reconciler: this key's outcome is unknown
	MsgResolved      sim.MsgKind // reconciler → intent service: charged (txn) or not found

	TimerCallTimeout   sim.TimerKind // a service gives up waiting for its provider
	TimerReconcile     sim.TimerKind // the reconciler's pace: one lookup per tick
	TimerBackoff       sim.TimerKind // the fixed wait before the one retry
	TimerStepTimeout   sim.TimerKind // the order service gives up waiting for a step
	TimerCoreTimeout   sim.TimerKind // the provider's edge gives up on its billing core
	TimerLambdaTimeout sim.TimerKind // a Lambda invocation ran out of time: it is stopped

	SinkCardCharges   sim.SinkID // the gateway's ledger of card charges
	SinkContracts     sim.SinkID // contracts created
	SinkEmails        sim.SinkID // e-mails sent
	SinkStock         sim.SinkID // stock updates applied
	SinkOrdersWritten sim.SinkID // orders a Lambda handler wrote after its charge

	PointAfterLock    sim.PointID // key persisted as PROCESSING, gateway not yet called
	PointAfterCharge  sim.PointID // gateway charged, response not yet stored
	PointAfterStore   sim.PointID // response stored, not yet sent
	PointBetweenSteps sim.PointID // a step acknowledged, the next not yet called
	PointAfterStep    sim.PointID // a saga participant did a step and stored its key, the answer not yet sent
	PointBeforeRetry  sim.PointID // a client's retry timer fired, the retry not yet sent
	// PointStoreDown is where a key store marked crashable goes down: an
	// operation arrived and is not applied; the store keeps its durable
	// rows and is unreachable for its restart time (an outage, a
	// failover), every message sent to it meanwhile dropped.
	PointStoreDown sim.PointID
)
