package live

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// payChecked is the checked-payment-service of concurrent-same-key and
// store-outage-fail-closed, statement by statement as the simulator's
// CheckedService steps:
//
//  1. SELECT the key: COMPLETED answers its stored response, PROCESSING
//     answers 409;
//  2. no row: INSERT it as PROCESSING — with lock=unique-insert
//     INSERT … ON CONFLICT DO NOTHING into idempotency_keys, where a
//     request that loses gets 409; with lock=none a plain INSERT into
//     idempotency_keys_unlocked, a table with no unique constraint on the
//     key (check, then insert: the bug);
//  3. charge the gateway with the key;
//  4. write the row COMPLETED with the response (an upsert: the
//     simulator's db-update puts the row), then answer 201.
//
// Each statement is a step the fault layer sees (PathStore): before it,
// the key store may be down (the statement is unreachable); after it, the
// reply may be held at the preempt barrier — between the SELECT and the
// INSERT that is the race of lock=none. A statement that does not come
// back within the store timeout is where fail open and fail closed part:
// fail closed answers 503 (and keeps writing a response it has charged
// for, every store timeout, until the store takes it); fail open charges
// without the key, and answers without storing.
func (s *Service) payChecked(ctx context.Context, key string, op, attempt int32, amount int64) (reply, error) {
	var st string
	var code sql.NullInt64
	var body sql.NullString
	found := true
	err := s.storeStep(ctx, "db-get", "db-got", op, attempt, func(ctx context.Context) error {
		q := "SELECT status, response_code, response_body FROM idempotency_keys WHERE idempotency_key = ?"
		if s.cfg.NoLock {
			q = "SELECT status, response_code, response_body FROM idempotency_keys_unlocked WHERE idempotency_key = ? ORDER BY id DESC LIMIT 1"
		}
		err := s.db.QueryRow(ctx, q, key).Scan(&st, &code, &body)
		if errors.Is(err, sql.ErrNoRows) {
			found = false
			return nil
		}
		return err
	})
	if err != nil {
		return s.storeFailed(ctx, err, key, op, attempt, amount)
	}
	switch {
	case found && st == StatusCompleted:
		return reply{code: int(code.Int64), body: []byte(body.String), replayed: true}, nil
	case found:
		return problem(http.StatusConflict, "a request with this Idempotency-Key is in flight"), nil
	}
	inserted := true
	insert := "db-insert-if-absent"
	if s.cfg.NoLock {
		insert = "db-insert"
	}
	now := time.Now().UnixMilli()
	err = s.storeStep(ctx, insert, "db-insert-result", op, attempt, func(ctx context.Context) error {
		if s.cfg.NoLock {
			_, err := s.db.Exec(ctx, "INSERT INTO idempotency_keys_unlocked (idempotency_key, op, status) VALUES (?, ?, ?)", key, op, StatusProcessing)
			return err
		}
		res, err := s.db.Exec(ctx, "INSERT INTO idempotency_keys (idempotency_key, request_hash, request_body, op, status, created_at_ms, locked_at_ms) "+
			"VALUES (?, '', '', ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING", key, op, StatusProcessing, now, now)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		inserted = n == 1
		return err
	})
	if err != nil {
		return s.storeFailed(ctx, err, key, op, attempt, amount)
	}
	if !inserted {
		return problem(http.StatusConflict, "a request with this Idempotency-Key is in flight"), nil
	}
	txn, err := s.charge(ctx, key, op, attempt, amount)
	if err != nil {
		return reply{}, err
	}
	return s.storeResponse(ctx, key, op, attempt, txn)
}

// chargeUnkeyed is fail open: the key store is away, so the charge is
// made with no key row to stop a retry from charging again.
func (s *Service) chargeUnkeyed(ctx context.Context, key string, op, attempt int32, amount int64) (reply, error) {
	txn, err := s.charge(ctx, key, op, attempt, amount)
	if err != nil {
		return reply{}, err
	}
	return s.storeResponse(ctx, key, op, attempt, txn)
}

// storeResponse writes the COMPLETED row and answers 201. When the store
// does not take it in time, fail closed writes it again, every store
// timeout, until it does (a charge made is never answered 503); fail open
// answers 201 without it.
func (s *Service) storeResponse(ctx context.Context, key string, op, attempt int32, txn int64) (reply, error) {
	code, resp := created(txn)
	for {
		err := s.storeStep(ctx, "db-update", "db-update-result", op, attempt, func(ctx context.Context) error {
			// The row is written whether or not it is there, as the
			// simulator's db-update puts it: under fail open the charge was
			// made with the store away, no PROCESSING row was inserted, and
			// the response is stored all the same once the store answers.
			if s.cfg.NoLock {
				res, err := s.db.Exec(ctx, "UPDATE idempotency_keys_unlocked SET status = ?, response_code = ?, response_body = ? WHERE idempotency_key = ?",
					StatusCompleted, code, string(resp), key)
				if err != nil {
					return err
				}
				if n, err := res.RowsAffected(); err != nil || n > 0 {
					return err
				}
				_, err = s.db.Exec(ctx, "INSERT INTO idempotency_keys_unlocked (idempotency_key, op, status, response_code, response_body) VALUES (?, ?, ?, ?, ?)",
					key, op, StatusCompleted, code, string(resp))
				return err
			}
			_, err := s.db.Exec(ctx, "INSERT INTO idempotency_keys (idempotency_key, request_hash, request_body, op, status, response_code, response_body, created_at_ms) "+
				"VALUES (?, '', '', ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO UPDATE SET status = excluded.status, "+
				"response_code = excluded.response_code, response_body = excluded.response_body, locked_at_ms = NULL",
				key, op, StatusCompleted, code, string(resp), time.Now().UnixMilli())
			return err
		})
		switch {
		case err == nil, errors.Is(err, errStoreAway) && s.cfg.FailOpen:
			return reply{code: code, body: resp}, nil
		case errors.Is(err, errStoreAway) && ctx.Err() == nil:
			continue // fail closed: the response is written before it is sent
		case errors.Is(err, errStoreAway):
			return reply{}, ctx.Err()
		}
		return reply{}, err
	}
}

// statementBound bounds one key store statement that reached the store.
const statementBound = 5 * time.Second

// storeFailed answers a request whose SELECT or INSERT of its key failed:
// a store that did not answer in time charges without the key (fail
// open) or answers 503 (fail closed); another error is the run's.
func (s *Service) storeFailed(ctx context.Context, err error, key string, op, attempt int32, amount int64) (reply, error) {
	switch {
	case errors.Is(err, errStoreAway) && s.cfg.FailOpen:
		return s.chargeUnkeyed(ctx, key, op, attempt, amount)
	case errors.Is(err, errStoreAway):
		return problem(http.StatusServiceUnavailable, "the Idempotency-Key store does not answer; retry with the same key"), nil
	}
	return reply{}, err
}

// errStoreAway: a key store statement did not come back within the store
// timeout (the store is down, or its answer was lost).
var errStoreAway = errors.New("the key store did not answer in time")

// storeStep runs one key store statement as a step of the checked
// service: the fault layer is asked before it (is the store reachable? it
// answers "down" when the store timeout has passed with no reply), the
// statement runs under the store timeout, and the fault layer is told
// after it (the reply's fate: it may hold the request at the preempt
// barrier). Waiting for the turn is the scheduler's time, not the store's:
// the deadline starts when the statement is sent.
func (s *Service) storeStep(ctx context.Context, msg, replyMsg string, op, attempt int32, stmt func(context.Context) error) error {
	verdict, err := s.gate(ctx, "before", msg, op, attempt)
	switch {
	case err != nil:
		return err
	case verdict == gateDown:
		return errStoreAway
	}
	// The store timeout is the scenario's, on the run's clock: the gate
	// answers "down" when it has passed with the store unreachable. A
	// statement that reached the store takes no time in the simulator
	// (the clock stands still while it runs), so its own deadline here is
	// only a bound on a database that hangs — never the store timeout in
	// real time, which a loaded machine's slow statement would hit.
	sctx := ctx
	if s.cfg.StoreTimeoutMs > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, max(time.Duration(s.cfg.StoreTimeoutMs)*time.Millisecond, statementBound))
		defer cancel()
	}
	if err := stmt(sctx); err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return errStoreAway
		}
		return fmt.Errorf("key store %s: %w", msg, err)
	}
	// The reply's fate is asked with the request's context: a reply that
	// came back is not lost to the deadline while it is held.
	_, err = s.gate(ctx, "after", replyMsg, op, attempt)
	return err
}

// gate asks the fault layer about one key store step and returns its
// answer: go-on, or down.
func (s *Service) gate(ctx context.Context, step, msg string, op, attempt int32) (string, error) {
	q := url.Values{"step": {step}, "msg": {msg}, "op": {strconv.Itoa(int(op))}, "attempt": {strconv.Itoa(int(attempt))}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Gateway+PathStore+"?"+q.Encode(), nil)
	if err != nil {
		return "", fmt.Errorf("key store gate: %w", err)
	}
	resp, err := s.ctl.Do(req)
	if err != nil {
		return "", fmt.Errorf("key store gate: %w", err)
	}
	defer resp.Body.Close()
	verdict, _ := io.ReadAll(io.LimitReader(resp.Body, 16))
	if resp.StatusCode != http.StatusOK || (string(verdict) != oracleGoOn && string(verdict) != gateDown) {
		return "", fmt.Errorf("key store gate: %s %q", resp.Status, verdict)
	}
	return string(verdict), nil
}
