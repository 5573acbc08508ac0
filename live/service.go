package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"
)

// ServiceConfig is what the payment service process is started with (as
// JSON in its one argument): its database, where the gateway and the fault
// layer are, and the variant of the protocol it runs.
type ServiceConfig struct {
	DSN       string `json:"dsn"`
	Gateway   string `json:"gateway"`   // base URL of the gateway, through the fault layer
	Semantics string `json:"semantics"` // amo | alo | idem | txn
	Durable   bool   `json:"durable"`   // keys in idempotency_keys (false: store=memory)
	MarkAfter bool   `json:"mark_after"`
	NoLock    bool   `json:"no_lock"`
	Reuse     string `json:"reuse"`      // reject | replay | overwrite
	TTLMs     int64  `json:"ttl_ms"`     // real milliseconds a key is kept; 0 = forever
	Crashable bool   `json:"crashable"`  // ask the fault layer at every crash point
	TimeoutMs int64  `json:"timeout_ms"` // bound of one gateway call
}

// Service is the payment service: POST /payments charges the card at the
// gateway.
//
// Under at-most-once and at-least-once it is the naive endpoint: every
// request is a new charge (at-most-once drops a transport-level copy of a
// request it has already seen, as TCP would). Under the idempotent
// semantics it follows the lesson's protocol, in this order: no key → 400;
// insert the key as PROCESSING with INSERT … ON CONFLICT DO NOTHING
// *before* the gateway is called; a key that exists answers 422 when the
// request hash differs, 409 while PROCESSING, the stored response when
// COMPLETED; the gateway gets the same key; the response is stored
// (COMPLETED) *before* it is sent. At start, every key left PROCESSING by
// a crash is resolved by asking the gateway by that key, never by charging
// blindly. The buggy variants (mark after, no lock, memory store, reuse
// replay/overwrite) are the same code with one step moved or missing.
type Service struct {
	cfg  ServiceConfig
	db   *DB
	keys keyStore
	http *http.Client
	die  func() // a crash: the process is killed, nothing is flushed
}

func (s *Service) idempotent() bool { return s.cfg.Semantics == "idem" || s.cfg.Semantics == "txn" }

// ServeHTTP handles POST /payments.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != PathPayments {
		http.NotFound(w, r)
		return
	}
	op, attempt, err := identity(r.Header)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, paymentResponse{Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	var req paymentRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, paymentResponse{Status: http.StatusBadRequest, Error: "body: " + err.Error()})
		return
	}
	var code int
	var resp []byte
	if s.idempotent() {
		code, resp, err = s.payIdempotent(r.Context(), r.Header.Get(HeaderIdempotencyKey), op, attempt, string(body), req.Amount)
	} else {
		code, resp, err = s.payNaive(r.Context(), op, attempt, req.Amount)
	}
	if err != nil {
		writeJSON(w, http.StatusBadGateway, paymentResponse{Status: http.StatusBadGateway, Error: err.Error()})
		return
	}
	if code == 0 {
		panic(http.ErrAbortHandler) // no answer at all: the connection is closed
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(resp)
}

func created(txn int64) (int, []byte) {
	body, _ := json.Marshal(paymentResponse{Status: http.StatusCreated, TxnID: txn})
	return http.StatusCreated, body
}

func answer(code int, msg string) (int, []byte) {
	body, _ := json.Marshal(paymentResponse{Status: code, Error: msg})
	return code, body
}

// payNaive charges every request. At-most-once first records (op,
// attempt) in seen_requests and answers nothing to a copy it has seen.
func (s *Service) payNaive(ctx context.Context, op, attempt int32, amount int64) (int, []byte, error) {
	if s.cfg.Semantics == "amo" {
		res, err := s.db.Exec(ctx, "INSERT INTO seen_requests (op, attempt) VALUES (?, ?) ON CONFLICT (op, attempt) DO NOTHING", op, attempt)
		if err != nil {
			return 0, nil, fmt.Errorf("seen request: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return 0, nil, nil
		}
	}
	txn, err := s.charge(ctx, "", op, attempt, amount)
	if err != nil {
		return 0, nil, err
	}
	s.crashPoint(ctx, "after-charge", "charge-result", op, attempt)
	code, body := created(txn)
	return code, body, nil
}

// payIdempotent is the Idempotency-Key protocol.
func (s *Service) payIdempotent(ctx context.Context, key string, op, attempt int32, body string, amount int64) (int, []byte, error) {
	if key == "" {
		c, b := answer(http.StatusBadRequest, "the Idempotency-Key header is required")
		return c, b, nil
	}
	sum := sha256.Sum256([]byte(body))
	hash := hex.EncodeToString(sum[:])
	now := time.Now().UnixMilli()
	row := keyRow{Key: key, RequestHash: hash, RequestBody: body, Op: op, Status: StatusProcessing, CreatedAtMs: now}
	if s.cfg.TTLMs > 0 {
		row.ExpiresAtMs = now + s.cfg.TTLMs
	}
	// Two rounds at most: a unique insert that loses to a concurrent
	// request looks the winner's row up once more.
	for round := 0; round < 2; round++ {
		old, known, err := s.keys.Get(ctx, key)
		if err != nil {
			return 0, nil, err
		}
		if known && old.ExpiresAtMs > 0 && now >= old.ExpiresAtMs {
			if err := s.keys.Delete(ctx, key); err != nil { // the key is forgotten
				return 0, nil, err
			}
			known = false
		}
		again := false
		if known {
			switch {
			case old.RequestHash != hash && s.cfg.Reuse == "overwrite":
				again = true
			case old.RequestHash != hash && s.cfg.Reuse != "replay":
				c, b := answer(http.StatusUnprocessableEntity, "this Idempotency-Key was used with another request")
				return c, b, nil
			case old.Status == StatusProcessing && s.cfg.NoLock:
				again = true
			case old.Status == StatusProcessing:
				c, b := answer(http.StatusConflict, "a request with this Idempotency-Key is in flight")
				return c, b, nil
			default:
				return old.ResponseCode, []byte(old.ResponseBody), nil // the stored response, byte for byte
			}
		}
		if s.cfg.MarkAfter {
			break // check, call, mark: nothing is written before the charge
		}
		if again || s.cfg.NoLock {
			if err := s.keys.Upsert(ctx, row); err != nil {
				return 0, nil, err
			}
			break
		}
		inserted, err := s.keys.Insert(ctx, row)
		if err != nil {
			return 0, nil, err
		}
		if inserted {
			break
		}
		if round == 1 {
			c, b := answer(http.StatusConflict, "a request with this Idempotency-Key is in flight")
			return c, b, nil
		}
	}
	if !s.cfg.MarkAfter {
		s.crashPoint(ctx, "after-lock", "pay", op, attempt)
	}
	txn, err := s.charge(ctx, key, op, attempt, amount)
	if err != nil {
		return 0, nil, err
	}
	code, resp := created(txn)
	if err := s.complete(ctx, row, op, attempt, code, resp, "charge-result"); err != nil {
		return 0, nil, err
	}
	return code, resp, nil
}

// complete stores the response under the key (the crash points on either
// side are the simulator's after-charge and after-store).
func (s *Service) complete(ctx context.Context, row keyRow, op, attempt int32, code int, resp []byte, msg string) error {
	s.crashPoint(ctx, "after-charge", msg, op, attempt)
	if s.cfg.MarkAfter {
		row.Status, row.ResponseCode, row.ResponseBody = StatusCompleted, code, string(resp)
		if err := s.keys.Upsert(ctx, row); err != nil {
			return err
		}
	} else if err := s.keys.Complete(ctx, row.Key, code, string(resp)); err != nil {
		return err
	}
	s.crashPoint(ctx, "after-store", msg, op, attempt)
	return nil
}

// Recover resolves every key a crash left PROCESSING: the gateway is asked
// by the key; a charge it knows is stored, a charge it does not know (or a
// gateway that cannot tell) is made now, under the same key.
func (s *Service) Recover(ctx context.Context) error {
	if !s.idempotent() {
		return nil
	}
	rows, err := s.keys.Processing(ctx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		txn, found, err := s.lookup(ctx, r.Key, r.Op)
		if err != nil {
			return err
		}
		msg := "lookup-result"
		if !found {
			var req paymentRequest
			if err := json.Unmarshal([]byte(r.RequestBody), &req); err != nil {
				return fmt.Errorf("recover key %s: %w", r.Key, err)
			}
			if txn, err = s.charge(ctx, r.Key, r.Op, 0, req.Amount); err != nil {
				return err
			}
			msg = "charge-result"
		}
		code, resp := created(txn)
		if err := s.complete(ctx, r, r.Op, 0, code, resp, msg); err != nil {
			return err
		}
	}
	return nil
}

// charge calls the gateway's POST /charges.
func (s *Service) charge(ctx context.Context, key string, op, attempt int32, amount int64) (int64, error) {
	body, _ := json.Marshal(chargeRequest{Key: key, Op: op, Attempt: attempt, Amount: amount})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Gateway+PathCharges, bytesReader(body))
	if err != nil {
		return 0, fmt.Errorf("charge: %w", err)
	}
	setIdentity(req.Header, op, attempt)
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("charge op %d: %w", op, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return 0, fmt.Errorf("charge op %d: gateway answered %s", op, resp.Status)
	}
	var cr chargeResponse
	if err := readJSON(resp.Body, &cr); err != nil {
		return 0, fmt.Errorf("charge op %d: %w", op, err)
	}
	return cr.TxnID, nil
}

// lookup calls the gateway's GET /charges/lookup: found, not found (404),
// or cannot tell (501: a plain gateway), which recovery treats as not found.
func (s *Service) lookup(ctx context.Context, key string, op int32) (int64, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.Gateway+PathLookup+"?key="+url.QueryEscape(key), nil)
	if err != nil {
		return 0, false, fmt.Errorf("lookup: %w", err)
	}
	setIdentity(req.Header, op, 0)
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, false, fmt.Errorf("lookup key %s: %w", key, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		var cr chargeResponse
		if err := readJSON(resp.Body, &cr); err != nil {
			return 0, false, fmt.Errorf("lookup key %s: %w", key, err)
		}
		return cr.TxnID, true, nil
	case http.StatusNotFound, http.StatusNotImplemented:
		return 0, false, nil
	}
	return 0, false, fmt.Errorf("lookup key %s: gateway answered %s", key, resp.Status)
}

// crashPoint asks the fault layer whether to crash here and, if so, dies
// at once: no deferred function runs, no response is written.
func (s *Service) crashPoint(ctx context.Context, point, msg string, op, attempt int32) {
	if !s.cfg.Crashable {
		return
	}
	q := url.Values{"point": {point}, "msg": {msg}, "op": {strconv.Itoa(int(op))}, "attempt": {strconv.Itoa(int(attempt))}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.Gateway+PathCrash+"?"+q.Encode(), nil)
	if err != nil {
		return
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return
	}
	verdict, _ := io.ReadAll(io.LimitReader(resp.Body, 16))
	resp.Body.Close()
	if string(verdict) == oracleKill {
		s.die()
	}
}

// killSelf is a crash: SIGKILL to the own process.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
	}
	os.Exit(137) // not reached on a system that delivered the kill
}
