package live

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The intent service's endpoints besides POST /payments, and the
// reconciler's.
const (
	// PathResolved is where the reconciler reports what the provider said
	// about an UNKNOWN intent: charged (with the transaction) or not found.
	PathResolved = "/intents/resolved"
	// PathChargeWebhook is where a provider's answer that came back after
	// the call's deadline is delivered (a late result completes the
	// intent, as a provider's webhook would).
	PathChargeWebhook = "/webhooks/charges"
	// PathUnknown is the reconciler's: the service hands it an intent
	// whose outcome is unknown.
	PathUnknown = "/unknown"
	// HeaderCaller names, as "op,attempt", the request inside the service
	// on whose behalf a provider call is made; the call itself carries the
	// simulator's identity of the charge (op, and the intent's call count).
	HeaderCaller = "X-Once-Caller"
)

// Intent states (payment_intents.status): the simulator's intent-service
// states.
const (
	IntentProcessing = "PROCESSING"
	IntentCompleted  = "COMPLETED"
	IntentUnknown    = "UNKNOWN"
)

// maxIntentCalls bounds the provider calls one request makes under
// on-timeout=retry-new-key (the simulator's blind retry has no bound of
// its own; its run budget stops it).
const maxIntentCalls = 50

// statusTimeout is the fault layer's answer to a provider call whose
// deadline passed with no answer: 504, the outcome unknown.
const statusTimeout = http.StatusGatewayTimeout

// unknownReport is the body of POST /unknown (service → reconciler).
type unknownReport struct {
	Key string `json:"key"`
	Op  int32  `json:"op"`
}

// resolution is the body of POST /intents/resolved (reconciler → service).
type resolution struct {
	Key    string `json:"key"`
	Op     int32  `json:"op"`
	Status int    `json:"status"` // the provider's lookup answer: 200 charged, 404 not found, 501 cannot tell
	TxnID  int64  `json:"txn_id,omitempty"`
}

// chargeNotice is the body of POST /webhooks/charges: the provider's
// answer to a call, under the reference the call was made with.
type chargeNotice struct {
	Ref   string `json:"ref"`
	Op    int32  `json:"op"`
	TxnID int64  `json:"txn_id"`
}

// intentRow is one row of payment_intents.
type intentRow struct {
	hash, body, status string
	calls              int32
	code               sql.NullInt64
	resp               sql.NullString
}

// payIntent is the intent-service's POST /payments under the idempotent
// semantics, as the simulator's IntentService handles a request: a known
// key answers 422 (another body), its stored response (COMPLETED) or 409
// (PROCESSING or UNKNOWN: not decided yet); a new key is inserted as
// PROCESSING with its body *before* the provider is called with it. The
// request then waits for the call: an answer completes the intent and is
// sent; a call whose deadline passes leaves the request unanswered (the
// client retries and meets 409 until the intent is decided).
func (s *Service) payIntent(ctx context.Context, key string, op, attempt int32, body string, amount, now int64) (reply, error) {
	sum := sha256.Sum256([]byte(body))
	hash := hex.EncodeToString(sum[:])
	if r, found, err := s.intent(ctx, key); err != nil {
		return reply{}, err
	} else if found {
		return intentAnswer(r, hash), nil
	}
	res, err := s.db.Exec(ctx, "INSERT INTO payment_intents (idempotency_key, request_hash, request_body, op, status, at_ms) "+
		"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING", key, hash, body, op, IntentProcessing, now)
	if err != nil {
		return reply{}, fmt.Errorf("intent %s: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return reply{}, fmt.Errorf("intent %s: %w", key, err)
		}
		return problem(http.StatusConflict, "a request with this Idempotency-Key is in flight"), nil
	}
	return s.callIntent(ctx, key, op, attempt, amount, true)
}

// intentAnswer is the answer to a request whose key is known.
func intentAnswer(r intentRow, hash string) reply {
	switch {
	case r.hash != hash:
		return problem(http.StatusUnprocessableEntity, "this Idempotency-Key was used with another request")
	case r.status != IntentCompleted:
		return problem(http.StatusConflict, "the outcome of this payment is not decided yet; retry later")
	}
	return reply{code: int(r.code.Int64), body: []byte(r.resp.String), replayed: true}
}

// intent reads the row of key.
func (s *Service) intent(ctx context.Context, key string) (intentRow, bool, error) {
	var r intentRow
	err := s.db.QueryRow(ctx, "SELECT request_hash, request_body, status, calls, response_code, response_body FROM payment_intents WHERE idempotency_key = ?", key).
		Scan(&r.hash, &r.body, &r.status, &r.calls, &r.code, &r.resp)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("intent %s: %w", key, err)
	}
	return r, true, nil
}

// callIntent calls the provider for the intent under key, once more, with
// the call's deadline, for the request (op, attempt) inside the service;
// waiting says whether a client's request waits for the answer.
//
// An answer completes the intent (unless an earlier answer did) and is
// the reply. A deadline that passes with the intent still PROCESSING on
// this call is the lesson: on-timeout=reconcile marks the intent UNKNOWN
// and hands the key to the reconciler; on-timeout=retry-new-key charges
// again at once under a fresh provider reference — the blind retry.
func (s *Service) callIntent(ctx context.Context, key string, op, attempt int32, amount int64, waiting bool) (reply, error) {
	for round := 0; round < maxIntentCalls; round++ {
		var calls int32
		if err := s.db.QueryRow(ctx, "UPDATE payment_intents SET calls = calls + 1 WHERE idempotency_key = ? RETURNING calls", key).Scan(&calls); err != nil {
			return reply{}, fmt.Errorf("intent %s: count call: %w", key, err)
		}
		ref := key
		if s.cfg.NewKey {
			ref = key + "/ref-" + strconv.Itoa(int(calls)) // a fresh reference, written down with its intent
			if _, err := s.db.Exec(ctx, "INSERT INTO provider_refs (ref, idempotency_key) VALUES (?, ?)", ref, key); err != nil {
				return reply{}, fmt.Errorf("intent %s: provider reference: %w", key, err)
			}
		}
		txn, now, answered, err := s.callProvider(ctx, ref, op, calls, attempt, amount)
		if err != nil {
			return reply{}, err
		}
		if answered {
			r, err := s.completeIntent(ctx, key, txn, now)
			if err != nil || !waiting {
				return reply{}, err
			}
			return reply{code: int(r.code.Int64), body: []byte(r.resp.String)}, nil
		}
		if !s.cfg.NewKey {
			return reply{}, s.markUnknown(ctx, key, op, calls, now)
		}
		// The blind retry, as the simulator's deadline timer does it: only
		// while the intent is PROCESSING on this very call.
		r, _, err := s.intent(ctx, key)
		switch {
		case err != nil:
			return reply{}, err
		case r.status == IntentCompleted && waiting: // a late answer got there first
			return reply{code: int(r.code.Int64), body: []byte(r.resp.String)}, nil
		case r.status != IntentProcessing || r.calls != calls:
			return reply{}, nil
		}
	}
	return reply{}, fmt.Errorf("intent %s: no answer after %d provider calls", key, maxIntentCalls)
}

// completeIntent stores the provider's answer as the intent's response,
// unless the intent is already COMPLETED (a second charge's answer: the
// first one is the result), and returns the row as it now is.
func (s *Service) completeIntent(ctx context.Context, key string, txn, now int64) (intentRow, error) {
	code, resp := created(txn)
	if _, err := s.db.Exec(ctx, "UPDATE payment_intents SET status = ?, response_code = ?, response_body = ?, at_ms = ? "+
		"WHERE idempotency_key = ? AND status <> ?", IntentCompleted, code, string(resp), now, key, IntentCompleted); err != nil {
		return intentRow{}, fmt.Errorf("intent %s: complete: %w", key, err)
	}
	r, _, err := s.intent(ctx, key)
	return r, err
}

// markUnknown marks the intent UNKNOWN — only if it is still PROCESSING on
// call calls — and hands its key to the reconciler.
func (s *Service) markUnknown(ctx context.Context, key string, op, calls int32, now int64) error {
	res, err := s.db.Exec(ctx, "UPDATE payment_intents SET status = ?, at_ms = ? WHERE idempotency_key = ? AND status = ? AND calls = ?",
		IntentUnknown, now, key, IntentProcessing, calls)
	if err != nil {
		return fmt.Errorf("intent %s: mark unknown: %w", key, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err
	}
	body, _ := json.Marshal(unknownReport{Key: key, Op: op})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Reconciler+PathUnknown, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("intent %s: reconciler: %w", key, err)
	}
	resp, err := s.ctl.Do(req)
	if err != nil {
		return fmt.Errorf("intent %s: reconciler: %w", key, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("intent %s: reconciler answered %s", key, resp.Status)
	}
	return nil
}

// callProvider charges the provider under ref through the fault layer,
// which answers 504 when the call's deadline (the scenario's call-timeout,
// on the run's clock) passes first; it returns the transaction, the run's
// virtual time of the answer or of the deadline, and whether an answer
// came.
func (s *Service) callProvider(ctx context.Context, ref string, op, calls, attempt int32, amount int64) (int64, int64, bool, error) {
	body, _ := json.Marshal(chargeRequest{Key: ref, Op: op, Attempt: calls, Amount: amount})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Gateway+PathCharges, bytes.NewReader(body))
	if err != nil {
		return 0, 0, false, fmt.Errorf("charge: %w", err)
	}
	setIdentity(req.Header, op, calls)
	req.Header.Set(HeaderCaller, strconv.Itoa(int(op))+","+strconv.Itoa(int(attempt)))
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, 0, false, fmt.Errorf("charge op %d: %w", op, err)
	}
	defer resp.Body.Close()
	now, _ := strconv.ParseInt(resp.Header.Get(HeaderNow), 10, 64)
	switch resp.StatusCode {
	case http.StatusCreated:
		var cr chargeResponse
		if err := readJSON(resp.Body, &cr); err != nil {
			return 0, 0, false, fmt.Errorf("charge op %d: %w", op, err)
		}
		return cr.TxnID, now, true, nil
	case statusTimeout:
		return 0, now, false, nil
	}
	return 0, 0, false, fmt.Errorf("charge op %d: gateway answered %s", op, resp.Status)
}

// serveIntent handles the intent service's endpoints other than POST
// /payments; false for a request that is none of them.
func (s *Service) serveIntent(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || (r.URL.Path != PathResolved && r.URL.Path != PathChargeWebhook) {
		return false
	}
	_, attempt, err := identity(r.Header)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return true
	}
	now, _ := strconv.ParseInt(r.Header.Get(HeaderNow), 10, 64)
	if r.URL.Path == PathChargeWebhook {
		var n chargeNotice
		if err := readJSON(r.Body, &n); err != nil {
			writeProblem(w, http.StatusBadRequest, "body: "+err.Error())
			return true
		}
		err = s.lateAnswer(r.Context(), n, now)
	} else {
		var res resolution
		if err := readJSON(r.Body, &res); err != nil {
			writeProblem(w, http.StatusBadRequest, "body: "+err.Error())
			return true
		}
		err = s.resolved(r.Context(), res, attempt, now)
	}
	if err != nil {
		writeProblem(w, http.StatusInternalServerError, err.Error())
		return true
	}
	w.WriteHeader(http.StatusNoContent)
	return true
}

// lateAnswer completes the intent a provider reference was issued for
// with an answer that came after the call's deadline.
func (s *Service) lateAnswer(ctx context.Context, n chargeNotice, now int64) error {
	key := n.Ref
	if s.cfg.NewKey {
		err := s.db.QueryRow(ctx, "SELECT idempotency_key FROM provider_refs WHERE ref = ?", n.Ref).Scan(&key)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // not an answer to a call of this service
		}
		if err != nil {
			return fmt.Errorf("provider reference %s: %w", n.Ref, err)
		}
	}
	_, err := s.completeIntent(ctx, key, n.TxnID, now)
	return err
}

// resolved applies the reconciler's finding to an UNKNOWN intent: charged
// completes it with the provider's transaction; not found puts it back to
// PROCESSING and charges again under the same key; a provider that cannot
// tell leaves it UNKNOWN, for a human. An intent no longer UNKNOWN (a late
// answer got there first) is left alone.
func (s *Service) resolved(ctx context.Context, res resolution, attempt int32, now int64) error {
	switch res.Status {
	case http.StatusOK:
		code, resp := created(res.TxnID)
		_, err := s.db.Exec(ctx, "UPDATE payment_intents SET status = ?, response_code = ?, response_body = ?, at_ms = ? WHERE idempotency_key = ? AND status = ?",
			IntentCompleted, code, string(resp), now, res.Key, IntentUnknown)
		if err != nil {
			return fmt.Errorf("intent %s: resolve: %w", res.Key, err)
		}
		return nil
	case http.StatusNotFound:
		r, err := s.db.Exec(ctx, "UPDATE payment_intents SET status = ?, at_ms = ? WHERE idempotency_key = ? AND status = ?",
			IntentProcessing, now, res.Key, IntentUnknown)
		if err != nil {
			return fmt.Errorf("intent %s: resolve: %w", res.Key, err)
		}
		if n, err := r.RowsAffected(); err != nil || n == 0 {
			return err
		}
		row, _, err := s.intent(ctx, res.Key)
		if err != nil {
			return err
		}
		var req paymentRequest
		if err := json.NewDecoder(strings.NewReader(row.body)).Decode(&req); err != nil {
			return fmt.Errorf("intent %s: body: %w", res.Key, err)
		}
		_, err = s.callIntent(ctx, res.Key, res.Op, attempt, req.Amount, false)
		return err
	}
	return nil
}
