package live

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// The states of an idempotency key, as the course writes them.
const (
	StatusProcessing = "PROCESSING"
	StatusCompleted  = "COMPLETED"
)

// keyRow is one row of the idempotency_keys table.
type keyRow struct {
	Key          string
	RequestHash  string
	RequestBody  string
	Op           int32
	Status       string
	ResponseCode int
	ResponseBody string
	CreatedAtMs  int64
	ExpiresAtMs  int64 // 0: never
	LockedAtMs   int64 // the lease of a PROCESSING key; 0: none (free to take over)
}

// keyStore is where the payment service keeps its idempotency keys: the
// idempotency_keys table (durable), or a map in the process (store=memory,
// the bug: a crash forgets every key).
type keyStore interface {
	// Insert adds row unless its key exists (INSERT … ON CONFLICT DO
	// NOTHING) and reports whether it did: the unique constraint is the
	// lock that lets exactly one of two concurrent requests through.
	Insert(ctx context.Context, row keyRow) (bool, error)
	// Upsert writes row whether or not the key exists (ON CONFLICT DO
	// UPDATE): the buggy variants (no lock, mark after, overwrite) use it.
	Upsert(ctx context.Context, row keyRow) error
	Get(ctx context.Context, key string) (keyRow, bool, error)
	// Complete stores the response of a key and marks it COMPLETED.
	Complete(ctx context.Context, key string, code int, body string) error
	Delete(ctx context.Context, key string) error
	// DeleteExpired deletes key only if it has expired at nowMs, checked
	// in the same statement: a concurrent request's fresh claim of the
	// key is never deleted by a retry that read the old row.
	DeleteExpired(ctx context.Context, key string, nowMs int64) error
	// TakeOver leases a PROCESSING key to the caller if its lease is unset
	// or older than staleMs (compare and set in one statement), and
	// reports whether it did.
	TakeOver(ctx context.Context, key string, nowMs, staleMs int64) (bool, error)
	// Release drops the lease of a PROCESSING key, so a retry may take it
	// over at once (the call it guarded failed).
	Release(ctx context.Context, key string) error
	// Processing lists the keys left PROCESSING, by key.
	Processing(ctx context.Context) ([]keyRow, error)
}

// sqlKeys is the durable key store: the idempotency_keys table.
type sqlKeys struct{ db *DB }

const keyColumns = "idempotency_key, request_hash, request_body, op, status, response_code, response_body, created_at_ms, expires_at_ms, locked_at_ms"

func keyArgs(r keyRow) []any {
	var code, body, expires, locked any
	if r.Status == StatusCompleted {
		code, body = r.ResponseCode, r.ResponseBody
	}
	if r.ExpiresAtMs > 0 {
		expires = r.ExpiresAtMs
	}
	if r.LockedAtMs > 0 && r.Status == StatusProcessing {
		locked = r.LockedAtMs
	}
	return []any{r.Key, r.RequestHash, r.RequestBody, r.Op, r.Status, code, body, r.CreatedAtMs, expires, locked}
}

func (s sqlKeys) Insert(ctx context.Context, r keyRow) (bool, error) {
	res, err := s.db.Exec(ctx, "INSERT INTO idempotency_keys ("+keyColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING", keyArgs(r)...)
	if err != nil {
		return false, fmt.Errorf("insert key %s: %w", r.Key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("insert key %s: %w", r.Key, err)
	}
	return n == 1, nil
}

func (s sqlKeys) Upsert(ctx context.Context, r keyRow) error {
	_, err := s.db.Exec(ctx, "INSERT INTO idempotency_keys ("+keyColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "+
		"ON CONFLICT (idempotency_key) DO UPDATE SET request_hash = excluded.request_hash, request_body = excluded.request_body, "+
		"op = excluded.op, status = excluded.status, response_code = excluded.response_code, response_body = excluded.response_body, "+
		"created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms, locked_at_ms = excluded.locked_at_ms", keyArgs(r)...)
	if err != nil {
		return fmt.Errorf("upsert key %s: %w", r.Key, err)
	}
	return nil
}

func scanKey(sc interface{ Scan(...any) error }) (keyRow, error) {
	var r keyRow
	var code, expires, locked sql.NullInt64
	var body sql.NullString
	err := sc.Scan(&r.Key, &r.RequestHash, &r.RequestBody, &r.Op, &r.Status, &code, &body, &r.CreatedAtMs, &expires, &locked)
	r.ResponseCode, r.ResponseBody, r.ExpiresAtMs, r.LockedAtMs = int(code.Int64), body.String, expires.Int64, locked.Int64
	return r, err
}

func (s sqlKeys) Get(ctx context.Context, key string) (keyRow, bool, error) {
	r, err := scanKey(s.db.QueryRow(ctx, "SELECT "+keyColumns+" FROM idempotency_keys WHERE idempotency_key = ?", key))
	if errors.Is(err, sql.ErrNoRows) {
		return keyRow{}, false, nil
	}
	if err != nil {
		return keyRow{}, false, fmt.Errorf("get key %s: %w", key, err)
	}
	return r, true, nil
}

func (s sqlKeys) Complete(ctx context.Context, key string, code int, body string) error {
	_, err := s.db.Exec(ctx, "UPDATE idempotency_keys SET status = ?, response_code = ?, response_body = ?, locked_at_ms = NULL WHERE idempotency_key = ?",
		StatusCompleted, code, body, key)
	if err != nil {
		return fmt.Errorf("complete key %s: %w", key, err)
	}
	return nil
}

func (s sqlKeys) Delete(ctx context.Context, key string) error {
	if _, err := s.db.Exec(ctx, "DELETE FROM idempotency_keys WHERE idempotency_key = ?", key); err != nil {
		return fmt.Errorf("delete key %s: %w", key, err)
	}
	return nil
}

func (s sqlKeys) DeleteExpired(ctx context.Context, key string, nowMs int64) error {
	if _, err := s.db.Exec(ctx, deleteExpiredSQL, key, nowMs); err != nil {
		return fmt.Errorf("expire key %s: %w", key, err)
	}
	return nil
}

// deleteExpiredSQL deletes a key only if it has expired: the expiry is
// checked by the statement that deletes.
const deleteExpiredSQL = "DELETE FROM idempotency_keys WHERE idempotency_key = ? AND expires_at_ms IS NOT NULL AND expires_at_ms <= ?"

// takeOverSQL leases a PROCESSING key whose lease is unset or stale, in one
// statement: of two requests that try, one updates the row.
const takeOverSQL = "UPDATE idempotency_keys SET locked_at_ms = ? WHERE idempotency_key = ? AND status = 'PROCESSING' AND (locked_at_ms IS NULL OR locked_at_ms <= ?)"

func (s sqlKeys) TakeOver(ctx context.Context, key string, nowMs, staleMs int64) (bool, error) {
	res, err := s.db.Exec(ctx, takeOverSQL, nowMs, key, nowMs-staleMs)
	if err != nil {
		return false, fmt.Errorf("take over key %s: %w", key, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("take over key %s: %w", key, err)
	}
	return n == 1, nil
}

func (s sqlKeys) Release(ctx context.Context, key string) error {
	if _, err := s.db.Exec(ctx, "UPDATE idempotency_keys SET locked_at_ms = NULL WHERE idempotency_key = ? AND status = 'PROCESSING'", key); err != nil {
		return fmt.Errorf("release key %s: %w", key, err)
	}
	return nil
}

func (s sqlKeys) Processing(ctx context.Context) ([]keyRow, error) {
	rows, err := s.db.Query(ctx, "SELECT "+keyColumns+" FROM idempotency_keys WHERE status = ? ORDER BY idempotency_key", StatusProcessing)
	if err != nil {
		return nil, fmt.Errorf("keys in PROCESSING: %w", err)
	}
	defer rows.Close()
	var out []keyRow
	for rows.Next() {
		r, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("keys in PROCESSING: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// memKeys is the in-memory key store of store=memory: the same protocol
// over a map guarded by a mutex, gone when the process dies.
type memKeys struct {
	mu   sync.Mutex
	rows map[string]keyRow
}

func newMemKeys() *memKeys { return &memKeys{rows: map[string]keyRow{}} }

func (m *memKeys) Insert(_ context.Context, r keyRow) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rows[r.Key]; ok {
		return false, nil
	}
	m.rows[r.Key] = r
	return true, nil
}

func (m *memKeys) Upsert(_ context.Context, r keyRow) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows[r.Key] = r
	return nil
}

func (m *memKeys) Get(_ context.Context, key string) (keyRow, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rows[key]
	return r, ok, nil
}

func (m *memKeys) Complete(_ context.Context, key string, code int, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.rows[key]; ok {
		r.Status, r.ResponseCode, r.ResponseBody = StatusCompleted, code, body
		m.rows[key] = r
	}
	return nil
}

func (m *memKeys) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.rows, key)
	return nil
}

func (m *memKeys) DeleteExpired(_ context.Context, key string, nowMs int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.rows[key]; ok && r.ExpiresAtMs > 0 && r.ExpiresAtMs <= nowMs {
		delete(m.rows, key)
	}
	return nil
}

func (m *memKeys) TakeOver(_ context.Context, key string, nowMs, staleMs int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rows[key]
	if !ok || r.Status != StatusProcessing || r.LockedAtMs > nowMs-staleMs {
		return false, nil
	}
	r.LockedAtMs = nowMs
	m.rows[key] = r
	return true, nil
}

func (m *memKeys) Release(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.rows[key]; ok && r.Status == StatusProcessing {
		r.LockedAtMs = 0
		m.rows[key] = r
	}
	return nil
}

func (m *memKeys) Processing(context.Context) ([]keyRow, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []keyRow
	for _, r := range m.rows {
		if r.Status == StatusProcessing {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}
