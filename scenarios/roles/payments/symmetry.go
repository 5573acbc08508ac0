package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// Operation symmetry (sim.OpRenamer) of the roles of POST /payments with a
// key per operation: the http-client, the payment-service and the
// card-gateway. Their payments are interchangeable — a payment's id
// reaches their state only as the id itself (a client's ops row, a
// pending key's operation, an at-most-once send key) and as the values
// the client derives from it: its Idempotency-Key (clientKey) and its
// body (roles.Payload). Transaction ids come from the gateway's counter,
// in the order the charges happen; they and the attempt numbers are
// mapped too (below: sim.IDRenamer, sim.AttemptRenamer). The explorer
// stores one state per renaming of the payments (sim.Symmetry);
// TestRolesAreEquivariant (package scenarios) checks, step by step on
// random schedules, that these roles do to a renamed state what they did
// to the original, renamed.

// renameKey renames a client's per-operation Idempotency-Key; any other
// key (none, a server's, a time-ordered one) is left as it is.
func renameKey(k int64, to func(sim.OpID) sim.OpID) int64 {
	if op := k - clientKeyBase; op >= 1 && op < clientKeyBase {
		return int64(clientKey(to(sim.OpID(op))))
	}
	return k
}

// renameBody renames a request body's fingerprint, roles.Payload(op).
func renameBody(b int64, to func(sim.OpID) sim.OpID) int64 {
	if op := b - roles.Payload(0); op >= 1 && op < clientKeyBase {
		return roles.Payload(to(sim.OpID(op)))
	}
	return b
}

// renameProviderCall renames the slots of a call to the gateway or its
// answer (providerCall): the merchant reference and the body.
func renameProviderCall(m *sim.Message, to func(sim.OpID) sim.OpID) {
	m.Key, m.Payload = renameKey(m.Key, to), renameBody(m.Payload, to)
}

// OpSymmetric implements sim.OpRenamer: a client that sends a key per
// operation (or none) treats every payment alike, unless it restarts —
// its Start schedules the payments by their numbers again.
func (c *HTTPClient) OpSymmetric(_ sim.Semantics, crashes bool) (bool, string) {
	switch {
	case c.KeyPerTry, c.ReuseFirst, c.ServerIssued, c.TimedKeys:
		return false, sim.SymmetryKeys // only keys one per operation are renamed
	case c.Orders:
		return false, sim.SymmetryUndeclared // the order services do not rename operations
	case crashes:
		return false, sim.SymmetryRestart // Start schedules the operations again by their numbers
	}
	return true, ""
}

// RenameRow implements sim.OpRenamer: the ops table is keyed by the
// operation; its rows hold no key (IssuedKey is set only by the clients
// OpSymmetric refuses).
func (c *HTTPClient) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	return roles.RenameOpsRow(t, clientOps, key, r, to)
}

// RenameMessage implements sim.OpRenamer: a response carries a
// transaction id and a status, a timer its operation and attempt; nothing
// derived from an operation id.
func (c *HTTPClient) RenameMessage(*sim.Message, bool, func(sim.OpID) sim.OpID) {}

// OpSymmetric implements sim.OpRenamer. A service whose keys survive a
// crash asks the gateway about its PROCESSING keys when it restarts under
// the idempotent semantics, in key order — an order of the payments' ids,
// so not symmetric then. (Under the others its Start does nothing.)
func (s *PaymentService) OpSymmetric(sem sim.Semantics, crashes bool) (bool, string) {
	if crashes && s.durableKeys && roles.Idempotent(sem) {
		return false, sim.SymmetryRestart
	}
	return true, ""
}

// RenameRow implements sim.OpRenamer: the key store (key, body, and the
// operation of a pending key) and the at-most-once seen table (keyed by
// operation and attempt).
func (s *PaymentService) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	switch t {
	case serviceKeys:
		v := decodeKeyRow(r)
		v.Body = fingerprint(renameBody(int64(v.Body), to))
		if !v.completed() {
			v.Op = to(v.Op)
		}
		return renameKey(key, to), v.encode()
	case serviceSeen:
		p := roles.TupleLoMax(roles.AttemptDigits) + 1
		return sendKey(to(sim.OpID(key/p)), int32(key%p)), r
	}
	return key, r
}

// RenameMessage implements sim.OpRenamer: a request's key and body, a
// gateway answer's merchant reference and body.
func (s *PaymentService) RenameMessage(m *sim.Message, timer bool, to func(sim.OpID) sim.OpID) {
	switch {
	case timer:
	case m.Kind == MsgPayRequest:
		m.Key, m.Payload = renameKey(m.Key, to), renameBody(m.Payload, to)
	case m.Kind == MsgChargeResult, m.Kind == MsgLookupResult:
		renameProviderCall(m, to)
	}
}

// OpSymmetric implements sim.OpRenamer: the gateway treats every charge
// alike, and its Start does nothing.
func (g *Gateway) OpSymmetric(sim.Semantics, bool) (bool, string) { return true, "" }

// RenameRow implements sim.OpRenamer: a charge under a merchant reference
// keeps the charged body; the counter is nobody's.
func (g *Gateway) RenameRow(t sim.TableID, key int64, r sim.Record, to func(sim.OpID) sim.OpID) (int64, sim.Record) {
	if t == gatewayCharges {
		v := decodeChargeRow(r)
		v.Body = fingerprint(renameBody(int64(v.Body), to))
		return renameKey(key, to), v.encode()
	}
	return key, r
}

// RenameMessage implements sim.OpRenamer: a charge or a lookup carries a
// merchant reference and a body.
func (g *Gateway) RenameMessage(m *sim.Message, timer bool, to func(sim.OpID) sim.OpID) {
	if !timer && (m.Kind == MsgCharge || m.Kind == MsgLookup) {
		renameProviderCall(m, to)
	}
}

// OpSymmetric overrides the embedded PaymentService's: the keys this
// service issues are not renamed.
func (s *KeyIssuingService) OpSymmetric(sim.Semantics, bool) (bool, string) {
	return false, sim.SymmetryKeys
}

// Issued ids (sim.IDRenamer): the gateway's transaction ids. The three
// roles only copy them — into a charge's answer, a stored response, a
// reply, the client's outcome — and compare them for equality (the
// checker's distinct outcomes); the gateway's counter, which keeps new
// ones fresh, is not an id. So the explorer renames them as it renames
// the payments, and a state where op-3's charge got 8821 and op-5's 8822
// is one with the state where they got them the other way round.

// RenameRowIDs implements sim.IDRenamer: the client's rows hold none.
func (c *HTTPClient) RenameRowIDs(_ sim.TableID, _ int64, r sim.Record, _ func(int64) int64) sim.Record {
	return r
}

// RenameMessageIDs implements sim.IDRenamer: a response carries the
// transaction id (Value); a timer none.
func (c *HTTPClient) RenameMessageIDs(m *sim.Message, timer bool, to func(int64) int64) {
	if _, kind := c.kinds(); !timer && m.Kind == kind {
		m.Value = to(m.Value)
	}
}

// OutcomeIDs implements sim.IDRenamer: the client's outcome is the
// transaction id it was answered with.
func (c *HTTPClient) OutcomeIDs() bool { return true }

// RenameRowIDs implements sim.IDRenamer: a completed key's stored
// response is a transaction id (a pending key's Value is its operation).
func (s *PaymentService) RenameRowIDs(t sim.TableID, _ int64, r sim.Record, to func(int64) int64) sim.Record {
	if t == serviceKeys && decodeKeyRow(r).completed() {
		r.Value = to(r.Value)
	}
	return r
}

// RenameMessageIDs implements sim.IDRenamer: a charge's or a lookup's
// answer carries the transaction id.
func (s *PaymentService) RenameMessageIDs(m *sim.Message, timer bool, to func(int64) int64) {
	if !timer && (m.Kind == MsgChargeResult || m.Kind == MsgLookupResult) {
		m.Value = to(m.Value)
	}
}

// OutcomeIDs implements sim.IDRenamer: the service records no outcomes.
func (s *PaymentService) OutcomeIDs() bool { return false }

// RenameRowIDs implements sim.IDRenamer: a charge row keeps its
// transaction id; the counter is not an id.
func (g *Gateway) RenameRowIDs(t sim.TableID, _ int64, r sim.Record, to func(int64) int64) sim.Record {
	if t == gatewayCharges {
		r.Value = to(r.Value)
	}
	return r
}

// RenameMessageIDs implements sim.IDRenamer: the calls the gateway
// receives carry none.
func (g *Gateway) RenameMessageIDs(*sim.Message, bool, func(int64) int64) {}

// OutcomeIDs implements sim.IDRenamer: the gateway records no outcomes.
func (g *Gateway) OutcomeIDs() bool { return false }

// Attempt numbers (sim.AttemptRenamer): the client numbers a payment's
// requests 1, 2, … and reads the numbers only against each other (a
// retry timer against the latest attempt, the next as the latest plus
// one); the service and the gateway copy them. So the explorer shifts
// each payment's attempt numbers, unless the client stops at a maximum
// number of attempts (it compares the number against it).

// AttemptsRelative implements sim.AttemptRenamer.
func (c *HTTPClient) AttemptsRelative() bool { return c.MaxAttempts == 0 }

// RenameRowAttempts implements sim.AttemptRenamer: a pending ops row holds
// the latest attempt (a finished one none).
func (c *HTTPClient) RenameRowAttempts(t sim.TableID, key int64, r sim.Record, to func(sim.OpID, int32) int32) (int64, sim.Record) {
	if t == clientOps && r.State == roles.OpPending {
		r.Value = int64(to(sim.OpID(key), int32(r.Value)))
	}
	return key, r
}

// AttemptsRelative implements sim.AttemptRenamer: the service copies
// attempt numbers and keys the at-most-once seen table by them.
func (s *PaymentService) AttemptsRelative() bool { return true }

// RenameRowAttempts implements sim.AttemptRenamer: a pending key holds the
// attempt being served, a seen row's key the (operation, attempt) seen.
func (s *PaymentService) RenameRowAttempts(t sim.TableID, key int64, r sim.Record, to func(sim.OpID, int32) int32) (int64, sim.Record) {
	switch t {
	case serviceKeys:
		if v := decodeKeyRow(r); !v.completed() {
			v.Attempt = to(v.Op, v.Attempt)
			r = v.encode()
		}
	case serviceSeen:
		p := roles.TupleLoMax(roles.AttemptDigits) + 1
		op := sim.OpID(key / p)
		key = sendKey(op, to(op, int32(key%p)))
	}
	return key, r
}

// AttemptsRelative implements sim.AttemptRenamer: the gateway echoes
// attempt numbers.
func (g *Gateway) AttemptsRelative() bool { return true }

// RenameRowAttempts implements sim.AttemptRenamer: its rows hold none.
func (g *Gateway) RenameRowAttempts(_ sim.TableID, key int64, r sim.Record, _ func(sim.OpID, int32) int32) (int64, sim.Record) {
	return key, r
}
