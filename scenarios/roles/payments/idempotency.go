package payments

import (
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// keyProtocol is the Idempotency-Key protocol (IETF draft) as every
// service of this family that speaks it answers a request whose key is
// already known, or that has none:
//
//   - no key: 400 Bad Request;
//   - a known key with another payload: 422 Unprocessable Content (unless
//     the service does not fingerprint bodies, then as below);
//   - a known key not completed yet (still in flight, or its outcome
//     unknown): 409 Conflict;
//   - a completed key: its stored response, replayed byte for byte.
//
// The key table's rows carry the key's state in State, the payload's
// fingerprint in Aux and the stored response in Status and Value.
type keyProtocol struct {
	completed int32 // the State of a row whose response is stored
	// noFingerprint: a known key with another payload is answered as if
	// the payload were the same (the reuse=replay bug).
	noFingerprint bool
}

// keyAnswer is the response a request gets without being processed.
type keyAnswer struct {
	Status int32
	Value  int64
}

// answer returns the answer to request m and true, or false when m is a
// new request the service must process. lookup returns the row stored
// under m's key (false: none, or one the service chooses to process
// again); it is called only when m carries a key.
func (p keyProtocol) answer(m sim.Message, lookup func() (sim.Record, bool)) (keyAnswer, bool) {
	if m.Key == 0 {
		return keyAnswer{Status: roles.StatusBadRequest}, true
	}
	r, known := lookup()
	switch {
	case !known:
		return keyAnswer{}, false
	case r.Aux != m.Payload && !p.noFingerprint:
		return keyAnswer{Status: roles.StatusUnprocessable}, true
	case r.State != p.completed:
		return keyAnswer{Status: roles.StatusConflict}, true
	default:
		return keyAnswer{Status: r.Status, Value: r.Value}, true
	}
}
