package live

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
)

// firstTxn is added to a charge's row id to make its transaction id: the
// lesson's first transaction is 8821.
const firstTxn = 8820

// Gateway is the card gateway: every charge it performs is a row of the
// charges table, where the verdict counts effects. Its modes are the
// simulator's: "plain" charges every request and knows no keys; "lookup"
// also answers GET /charges/lookup?key=… by the merchant's key; "idempotent"
// also dedups charges by key (the gateway_keys table, Stripe-style).
type Gateway struct {
	DB   *DB
	Mode string // plain | lookup | idempotent
	Ops  int    // operations of the run
}

// ServeHTTP routes POST /charges and GET /charges/lookup.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == PathCharges:
		var req chargeRequest
		if err := readJSON(r.Body, &req); err != nil {
			writeProblem(w, http.StatusBadRequest, "bad charge: "+err.Error())
			return
		}
		if req.Op == 0 { // a charge from the user's service: named by the fault layer
			if op, attempt, err := identity(r.Header); err == nil {
				req.Op, req.Attempt = op, attempt
			}
		}
		if req.Key == "" {
			req.Key = r.Header.Get(HeaderIdempotencyKey)
		}
		txn, err := g.charge(r.Context(), req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, http.StatusCreated, chargeResponse{TxnID: txn})
	case r.Method == http.MethodGet && r.URL.Path == PathLookup:
		if g.Mode == "plain" {
			http.Error(w, "lookup by key is not supported", http.StatusNotImplemented)
			return
		}
		txn, found, err := g.lookup(r.Context(), r.URL.Query().Get("key"))
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		case !found:
			http.Error(w, "no charge with this key", http.StatusNotFound)
		default:
			writeJSON(w, http.StatusOK, chargeResponse{TxnID: txn})
		}
	default:
		http.NotFound(w, r)
	}
}

// charge performs one charge. An idempotent gateway inserts the charge and
// its key in one transaction; a key already there rolls it back and
// answers the first charge's transaction.
func (g *Gateway) charge(ctx context.Context, req chargeRequest) (int64, error) {
	var key any
	if req.Key != "" && g.Mode != "plain" {
		key = req.Key
	}
	if g.Mode != "idempotent" || req.Key == "" {
		var id int64
		err := g.DB.QueryRow(ctx, "INSERT INTO charges (op, attempt, idempotency_key, amount) VALUES (?, ?, ?, ?) RETURNING id",
			req.Op, req.Attempt, key, req.Amount).Scan(&id)
		if err != nil {
			return 0, fmt.Errorf("gateway: charge: %w", err)
		}
		return id + firstTxn, nil
	}
	tx, err := g.DB.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("gateway: charge: %w", err)
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, g.DB.Rebind("INSERT INTO charges (op, attempt, idempotency_key, amount) VALUES (?, ?, ?, ?) RETURNING id"),
		req.Op, req.Attempt, key, req.Amount).Scan(&id); err != nil {
		return 0, fmt.Errorf("gateway: charge: %w", err)
	}
	res, err := tx.ExecContext(ctx, g.DB.Rebind("INSERT INTO gateway_keys (idempotency_key, charge_id) VALUES (?, ?) ON CONFLICT (idempotency_key) DO NOTHING"), req.Key, id)
	if err != nil {
		return 0, fmt.Errorf("gateway: charge key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		if err != nil {
			return 0, fmt.Errorf("gateway: charge key: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return 0, fmt.Errorf("gateway: commit charge: %w", err)
		}
		return id + firstTxn, nil
	}
	tx.Rollback() // the key was charged before: this charge never happened
	if err := g.DB.QueryRow(ctx, "SELECT charge_id FROM gateway_keys WHERE idempotency_key = ?", req.Key).Scan(&id); err != nil {
		return 0, fmt.Errorf("gateway: charged key: %w", err)
	}
	return id + firstTxn, nil
}

// lookup finds the first charge made under key.
func (g *Gateway) lookup(ctx context.Context, key string) (int64, bool, error) {
	var id int64
	err := g.DB.QueryRow(ctx, "SELECT id FROM charges WHERE idempotency_key = ? ORDER BY id LIMIT 1", key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("gateway: lookup: %w", err)
	}
	return id + firstTxn, true, nil
}
