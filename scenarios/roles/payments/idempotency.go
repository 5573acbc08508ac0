package payments

import "github.com/oncesim/once/scenarios/roles"

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
// The key table's rows are keyRows.
type keyProtocol struct {
	completed int32 // the State of a row whose response is stored
	// noFingerprint: a known key with another payload is answered as if
	// the payload were the same (the reuse=replay bug).
	noFingerprint bool
}

// answer returns the answer to request req and true, or false when req is
// a new request the service must process. lookup returns the row stored
// under req's key (false: none, or one the service chooses to process
// again); it is called only when m carries a key.
func (p keyProtocol) answer(req httpRequest, lookup func() (keyRow, bool)) (httpResponse, bool) {
	if req.Key == 0 {
		return httpResponse{Status: roles.StatusBadRequest}, true
	}
	r, known := lookup()
	switch {
	case !known:
		return httpResponse{}, false
	case r.Body != req.Body && !p.noFingerprint:
		return httpResponse{Status: roles.StatusUnprocessable}, true
	case r.State != p.completed:
		return httpResponse{Status: roles.StatusConflict}, true
	default:
		return httpResponse{Status: r.Status, Result: r.Response}, true
	}
}
