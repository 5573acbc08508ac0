// Package payments is the family of roles behind POST /payments and POST
// /orders: HTTP clients, the payment service and its card gateway, the
// server-issued key, the intent service and its reconciler, the rate-limited
// provider and its backoff client, the order service and its step services.
// The services that speak the Idempotency-Key protocol share one handler
// (idempotency.go).
package payments

import "github.com/oncesim/once/scenarios/roles"

// Message kinds, timers, sinks and crash points of the payments family:
// POST /payments through a service to a card gateway, server-issued keys,
// reconciliation of unknown outcomes, rate limits and multi-step orders.
var (
	MsgPayRequest    = roles.Message("pay")             // client → service: POST /payments [Idempotency-Key]
	MsgPayResponse   = roles.Message("pay-response")    // service → client: status and transaction id
	MsgCharge        = roles.Message("charge")          // service → gateway: charge the card
	MsgChargeResult  = roles.Message("charge-result")   // gateway → service: transaction id
	MsgLookup        = roles.Message("lookup")          // service → gateway: what happened to this key?
	MsgLookupResult  = roles.Message("lookup-result")   // gateway → service: charged (txn) or not found
	MsgOrder         = roles.Message("order")           // client → order service: POST /orders [Idempotency-Key]
	MsgOrderResponse = roles.Message("order-response")  // order service → client
	MsgStep          = roles.Message("step")            // order service → a step service: do one step [step key]
	MsgStepAck       = roles.Message("step-ack")        // step service → order service: step done (its record id)
	MsgUnknown       = roles.Message("unknown-outcome") // intent service → reconciler: this key's outcome is unknown
	MsgResolved      = roles.Message("resolved")        // reconciler → intent service: charged (txn) or not found

	TimerCallTimeout   = roles.Timer("call-timeout")   // a service gives up waiting for its provider
	TimerReconcile     = roles.Timer("reconcile")      // the reconciler's pace: one lookup per tick
	TimerBackoff       = roles.Timer("backoff")        // the fixed wait before the one retry
	TimerStepTimeout   = roles.Timer("step-timeout")   // the order service gives up waiting for a step
	TimerCoreTimeout   = roles.Timer("core-timeout")   // the provider's edge gives up on its billing core
	TimerLambdaTimeout = roles.Timer("lambda-timeout") // a Lambda invocation ran out of time: it is stopped

	SinkCardCharges   = roles.Sink("card-charges")   // the gateway's ledger of card charges
	SinkContracts     = roles.Sink("contracts")      // contracts created
	SinkEmails        = roles.Sink("emails")         // e-mails sent
	SinkStock         = roles.Sink("stock")          // stock updates applied
	SinkOrdersWritten = roles.Sink("orders-written") // orders a Lambda handler wrote after its charge

	PointAfterLock    = roles.Point("after-lock")    // key persisted as PROCESSING, gateway not yet called
	PointAfterCharge  = roles.Point("after-charge")  // gateway charged, response not yet stored
	PointAfterStore   = roles.Point("after-store")   // response stored, not yet sent
	PointBetweenSteps = roles.Point("between-steps") // a step acknowledged, the next not yet called
	PointAfterStep    = roles.Point("after-step")    // a saga participant did a step and stored its key, the answer not yet sent
	PointBeforeRetry  = roles.Point("before-retry")  // a client's retry timer fired, the retry not yet sent
	// PointStoreDown is where a key store marked crashable goes down: an
	// operation arrived and is not applied; the store keeps its durable
	// rows and is unreachable for its restart time (an outage, a
	// failover), every message sent to it meanwhile dropped.
	PointStoreDown = roles.Point("store-down")
)
