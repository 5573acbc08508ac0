package live

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// payRest is the rest-service's POST /payments (key-scoped-to-user): the
// request is made by the user its Authorization header names (none: 401).
// Under at-most-once and at-least-once every request is a charge (a
// transport copy dropped under at-most-once). Under the idempotent
// semantics a request without a key is refused 400; a key stored before
// is answered with the stored response, byte for byte; otherwise the
// charge and the stored response are one SQL transaction. The key store
// is keyed by (user, key) — user_idempotency_keys, whose primary key is
// the scoping — or, GlobalKeys, the bug, by the key alone
// (global_idempotency_keys): user 2's key 1 then finds user 1's receipt.
// After every answer, before it is sent, the service asks the fault layer
// at the simulator's after-store crash point.
func (s *Service) payRest(ctx context.Context, h http.Header, key string, op, attempt int32, amount int64) (reply, error) {
	user, ok := userOf(h)
	if !ok {
		return problem(http.StatusUnauthorized, "the "+HeaderAuthorization+" header must name the user: Bearer user-N"), nil
	}
	var rep reply
	var err error
	switch {
	case !s.idempotent():
		rep, err = s.restCharge(ctx, op, attempt, amount)
	case key == "":
		rep = problem(http.StatusBadRequest, "the Idempotency-Key header is required")
	case checkKey(key) != "":
		rep = problem(http.StatusBadRequest, checkKey(key))
	default:
		rep, err = s.restKeyed(ctx, user, key, op, attempt, amount)
	}
	if err != nil || rep.code == 0 {
		return rep, err
	}
	s.crashPoint(ctx, "after-store", "rest", op, attempt)
	return rep, nil
}

// restCharge charges a request without the key protocol; at-most-once
// first records (op, attempt) in seen_requests and answers nothing to a
// copy it has seen.
func (s *Service) restCharge(ctx context.Context, op, attempt int32, amount int64) (reply, error) {
	if s.cfg.Semantics == "amo" {
		if seen, err := s.seenBefore(ctx, op, attempt); err != nil || seen {
			return reply{}, err
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return reply{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	body, err := s.restInsertCharge(ctx, tx, "", op, attempt, amount)
	if err != nil {
		return reply{}, err
	}
	if err := tx.Commit(); err != nil {
		return reply{}, fmt.Errorf("commit charge: %w", err)
	}
	return reply{code: http.StatusCreated, body: body}, nil
}

// restKeyStatements are the key store's statements of one scope.
type restKeyStatements struct {
	lookup, insert string
	args           func(user int64, key string) []any
}

var (
	// scopedKeys is Brandur's design: the key is the user's.
	scopedKeys = restKeyStatements{
		lookup: "SELECT response_code, response_body FROM user_idempotency_keys WHERE user_id = ? AND idempotency_key = ?",
		insert: "INSERT INTO user_idempotency_keys (user_id, idempotency_key, op, response_code, response_body, created_at_ms) " +
			"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, idempotency_key) DO NOTHING",
		args: func(user int64, key string) []any { return []any{user, key} },
	}
	// globalKeys is the bug: the user is stored, never looked at.
	globalKeys = restKeyStatements{
		lookup: "SELECT response_code, response_body FROM global_idempotency_keys WHERE idempotency_key = ?",
		insert: "INSERT INTO global_idempotency_keys (user_id, idempotency_key, op, response_code, response_body, created_at_ms) " +
			"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING",
		args: func(_ int64, key string) []any { return []any{key} },
	}
)

// restKeyed is the Idempotency-Key protocol of the rest-service: look the
// key up; a stored answer is replayed; otherwise charge and store the
// answer in one transaction. A concurrent request that stored the key
// first wins: this one's charge is rolled back and the winner's answer
// replayed.
func (s *Service) restKeyed(ctx context.Context, user int64, key string, op, attempt int32, amount int64) (reply, error) {
	st := scopedKeys
	if s.cfg.GlobalKeys {
		st = globalKeys
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return reply{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if rep, found, err := s.restStored(ctx, tx, st, user, key); err != nil || found {
		return rep, err
	}
	body, err := s.restInsertCharge(ctx, tx, key, op, attempt, amount)
	if err != nil {
		return reply{}, err
	}
	res, err := tx.ExecContext(ctx, s.db.Rebind(st.insert), user, key, op, http.StatusCreated, string(body), time.Now().UnixMilli())
	if err != nil {
		return reply{}, fmt.Errorf("store key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return reply{}, fmt.Errorf("store key: %w", err)
		}
		tx.Rollback() // stored meanwhile by another request: this charge never happened
		rep, found, err := s.restStored(ctx, s.db.DB, st, user, key)
		if err == nil && !found {
			err = fmt.Errorf("key %s: neither stored nor found", key)
		}
		return rep, err
	}
	if err := tx.Commit(); err != nil {
		return reply{}, fmt.Errorf("commit charge and key: %w", err)
	}
	return reply{code: http.StatusCreated, body: body}, nil
}

// querier is a transaction or the database.
type querier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// restStored looks the key up in the scope's table: its stored answer.
func (s *Service) restStored(ctx context.Context, q querier, st restKeyStatements, user int64, key string) (reply, bool, error) {
	var code int
	var body string
	err := q.QueryRowContext(ctx, s.db.Rebind(st.lookup), st.args(user, key)...).Scan(&code, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return reply{}, false, nil
	}
	if err != nil {
		return reply{}, false, fmt.Errorf("look the key up: %w", err)
	}
	return reply{code: code, body: []byte(body), replayed: true}, true, nil
}

// restInsertCharge writes one charge in tx and returns the receipt: the
// transaction id and the balance (payments made so far), as JSON.
func (s *Service) restInsertCharge(ctx context.Context, tx *sql.Tx, key string, op, attempt int32, amount int64) ([]byte, error) {
	var k any
	if key != "" {
		k = key
	}
	var id, balance int64
	if err := tx.QueryRowContext(ctx, s.db.Rebind("INSERT INTO charges (op, attempt, idempotency_key, amount) VALUES (?, ?, ?, ?) RETURNING id"),
		op, attempt, k, amount).Scan(&id); err != nil {
		return nil, fmt.Errorf("charge op %d: %w", op, err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM charges").Scan(&balance); err != nil {
		return nil, fmt.Errorf("balance: %w", err)
	}
	body, _ := json.Marshal(paymentResponse{Status: http.StatusCreated, TxnID: id + firstTxn, Balance: balance})
	return body, nil
}
