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
	LeaseMs   int64  `json:"lease_ms"`   // a PROCESSING key whose lease is older is taken over
	// Checked runs the checked-payment-service: each key store statement
	// a step the fault layer sees (PathStore), with a deadline of
	// StoreTimeoutMs (0: none) after which FailOpen decides.
	Checked        bool  `json:"checked"`
	StoreTimeoutMs int64 `json:"store_timeout_ms"`
	FailOpen       bool  `json:"fail_open"`
	// LeaseService runs the lease-payment-service of stuck-processing-lease:
	// a failed gateway call answers 503 and leaves the key PROCESSING (no
	// release: the service cannot know whether the card was charged); a
	// retry takes the key over only once it is locked LeaseMs or longer
	// ago, counted in the run's virtual milliseconds (HeaderNow), and
	// LeaseMs 0 never takes it over.
	LeaseService bool `json:"lease_service"`
	// Intent runs the intent-service of ambiguous-external-outcome
	// (intent.go): NewKey is on-timeout=retry-new-key, Reconciler the
	// reconciler's base URL.
	Intent     bool   `json:"intent"`
	NewKey     bool   `json:"new_key"`
	Reconciler string `json:"reconciler"`
	// Rest runs the rest-service of key-scoped-to-user (restservice.go):
	// the user from the Authorization header, the charge and the stored
	// answer in one transaction, the keys scoped per user — or by the key
	// alone, GlobalKeys (the bug).
	Rest       bool `json:"rest"`
	GlobalKeys bool `json:"global_keys"`
}

// leaseTimeout is how long a PROCESSING key is leased to the request that
// holds it: longer than one gateway call, so only a request that failed or
// hung for good loses its key to a retry.
const leaseTimeout = gatewayCallTimeout + 10*time.Second

// Key limits: an Idempotency-Key is 1 to maxKeyLen printable ASCII
// characters (no space), as the IETF draft and Stripe ask.
const maxKeyLen = 255

// checkKey reports what is wrong with an Idempotency-Key, "" if nothing.
func checkKey(key string) string {
	if len(key) > maxKeyLen {
		return fmt.Sprintf("the Idempotency-Key is %d characters long; at most %d are allowed", len(key), maxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x21 || c > 0x7e {
			return fmt.Sprintf("the Idempotency-Key has a character outside printable ASCII at position %d", i+1)
		}
	}
	return ""
}

// reply is the service's answer to one request.
type reply struct {
	code     int
	body     []byte
	replayed bool // the stored response of a key, sent again
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
	// ctl asks the fault layer (crash points, key store steps): POST over
	// kept-alive connections — a POST without a key is never resent by
	// net/http, so no question is asked twice.
	ctl *http.Client
	die func() // a crash: the process is killed, nothing is flushed
}

func (s *Service) idempotent() bool { return s.cfg.Semantics == "idem" || s.cfg.Semantics == "txn" }

// ServeHTTP handles POST /payments.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Intent && s.serveIntent(w, r) {
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != PathPayments {
		writeProblem(w, http.StatusNotFound, "no such endpoint: POST /payments is the one there is")
		return
	}
	op, attempt, err := identity(r.Header)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	var req paymentRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeProblem(w, http.StatusBadRequest, "body: "+err.Error())
		return
	}
	var rep reply
	key := r.Header.Get(HeaderIdempotencyKey)
	switch {
	case s.cfg.Rest:
		rep, err = s.payRest(r.Context(), r.Header, key, op, attempt, req.Amount)
	case s.idempotent() && key == "":
		rep = problem(http.StatusBadRequest, "the Idempotency-Key header is required")
	case s.idempotent() && checkKey(key) != "":
		rep = problem(http.StatusBadRequest, checkKey(key))
	case s.idempotent() && s.cfg.Intent:
		rep, err = s.payIntent(r.Context(), key, op, attempt, string(body), req.Amount, s.now(r.Header))
	case s.idempotent() && s.cfg.Checked:
		rep, err = s.payChecked(r.Context(), key, op, attempt, req.Amount)
	case s.idempotent():
		rep, err = s.payIdempotent(r.Context(), key, op, attempt, string(body), req.Amount, s.now(r.Header))
	default:
		rep, err = s.payNaive(r.Context(), op, attempt, req.Amount)
	}
	if err != nil {
		code := http.StatusBadGateway
		if s.cfg.LeaseService {
			code = http.StatusServiceUnavailable // try again later: the key stays PROCESSING
		}
		writeProblem(w, code, err.Error())
		return
	}
	if rep.code == 0 {
		panic(http.ErrAbortHandler) // no answer at all: the connection is closed
	}
	if rep.code >= 200 && rep.code < 300 {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", problemType)
	}
	if rep.replayed {
		w.Header().Set(HeaderReplayed, "true")
	}
	w.WriteHeader(rep.code)
	w.Write(rep.body)
}

func created(txn int64) (int, []byte) {
	body, _ := json.Marshal(paymentResponse{Status: http.StatusCreated, TxnID: txn})
	return http.StatusCreated, body
}

// problem is an error answer as application/problem+json.
func problem(code int, detail string) reply {
	return reply{code: code, body: problemBody(code, detail)}
}

// seenBefore records (op, attempt) in seen_requests, at-most-once's
// record of the requests it answered, and says whether it was there
// already (a copy: answered with nothing).
func (s *Service) seenBefore(ctx context.Context, op, attempt int32) (bool, error) {
	res, err := s.db.Exec(ctx, "INSERT INTO seen_requests (op, attempt) VALUES (?, ?) ON CONFLICT (op, attempt) DO NOTHING", op, attempt)
	if err != nil {
		return false, fmt.Errorf("seen request: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 0, nil
}

// payNaive charges every request. At-most-once first records (op,
// attempt) in seen_requests and answers nothing to a copy it has seen.
func (s *Service) payNaive(ctx context.Context, op, attempt int32, amount int64) (reply, error) {
	if s.cfg.Semantics == "amo" {
		if seen, err := s.seenBefore(ctx, op, attempt); err != nil || seen {
			return reply{}, err
		}
	}
	txn, err := s.charge(ctx, "", op, attempt, amount)
	if err != nil {
		return reply{}, err
	}
	s.crashPoint(ctx, "after-charge", "charge-result", op, attempt)
	code, body := created(txn)
	return reply{code: code, body: body}, nil
}

// payIdempotent is the Idempotency-Key protocol.
func (s *Service) payIdempotent(ctx context.Context, key string, op, attempt int32, body string, amount int64, now int64) (reply, error) {
	sum := sha256.Sum256([]byte(body))
	hash := hex.EncodeToString(sum[:])
	row := keyRow{Key: key, RequestHash: hash, RequestBody: body, Op: op, Status: StatusProcessing, CreatedAtMs: now, LockedAtMs: now}
	if s.cfg.TTLMs > 0 {
		row.ExpiresAtMs = now + s.cfg.TTLMs
		// An expired key is forgotten; the statement checks the expiry
		// itself, so a fresh claim made meanwhile is never deleted.
		if err := s.keys.DeleteExpired(ctx, key, now); err != nil {
			return reply{}, err
		}
	}
	resume := false // a stuck key taken over: ask the gateway before charging
	// Two rounds at most: a unique insert that loses to a concurrent
	// request looks the winner's row up once more.
	for round := 0; round < 2; round++ {
		old, known, err := s.keys.Get(ctx, key)
		if err != nil {
			return reply{}, err
		}
		again := false
		if known {
			switch {
			case old.RequestHash != hash && s.cfg.Reuse == "overwrite":
				again = true
			case old.RequestHash != hash && s.cfg.Reuse != "replay":
				return problem(http.StatusUnprocessableEntity, "this Idempotency-Key was used with another request"), nil
			case old.Status == StatusProcessing && !s.cfg.NoLock:
				taken := false
				if !s.cfg.LeaseService || s.cfg.LeaseMs > 0 { // lease=0: held forever
					taken, err = s.keys.TakeOver(ctx, key, now, s.cfg.LeaseMs)
				}
				if err != nil {
					return reply{}, err
				}
				if !taken {
					return problem(http.StatusConflict, "a request with this Idempotency-Key is in flight"), nil
				}
				row, resume = old, true
			case old.Status == StatusProcessing:
				again = true // lock=none: the key does not stop a second request
			default:
				return reply{code: old.ResponseCode, body: []byte(old.ResponseBody), replayed: true}, nil // byte for byte
			}
		}
		if resume || s.cfg.MarkAfter {
			break // taken over; or check, call, mark: nothing is written before the charge
		}
		if again || s.cfg.NoLock {
			if err := s.keys.Upsert(ctx, row); err != nil {
				return reply{}, err
			}
			break
		}
		inserted, err := s.keys.Insert(ctx, row)
		if err != nil {
			return reply{}, err
		}
		if inserted {
			break
		}
		if round == 1 {
			return problem(http.StatusConflict, "a request with this Idempotency-Key is in flight"), nil
		}
	}
	if !s.cfg.MarkAfter && !resume {
		s.crashPoint(ctx, "after-lock", "pay", op, attempt)
	}
	var txn int64
	found, msg := false, "charge-result"
	if resume {
		t, ok, err := s.lookup(ctx, key, op, attempt)
		if err != nil {
			return reply{}, s.release(ctx, key, err)
		}
		txn, found, msg = t, ok, "lookup-result"
	}
	if !found {
		var err error
		if txn, err = s.charge(ctx, key, op, attempt, amount); err != nil {
			return reply{}, s.release(ctx, key, err)
		}
		msg = "charge-result"
	}
	code, resp := created(txn)
	if err := s.complete(ctx, row, op, attempt, code, resp, msg); err != nil {
		return reply{}, err
	}
	return reply{code: code, body: resp}, nil
}

// now is the time a request's key row is stamped with, in milliseconds:
// the wall clock, or for the lease-payment-service the run's virtual time
// the fault layer says the request arrived at (HeaderNow), so a lease is
// counted in the scenario's time as the simulator counts it.
func (s *Service) now(h http.Header) int64 {
	if s.cfg.LeaseService || s.cfg.Intent {
		if v, err := strconv.ParseInt(h.Get(HeaderNow), 10, 64); err == nil {
			return v
		}
	}
	return time.Now().UnixMilli()
}

// release gives up the lease of key after its call failed, so the next
// retry takes the key over at once instead of meeting 409 until the
// lease runs out, and returns the failure.
func (s *Service) release(ctx context.Context, key string, failure error) error {
	if s.cfg.MarkAfter || s.cfg.LeaseService {
		return failure
	}
	if err := s.keys.Release(context.WithoutCancel(ctx), key); err != nil {
		return fmt.Errorf("%w (and %v)", failure, err)
	}
	return failure
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
		txn, found, err := s.lookup(ctx, r.Key, r.Op, 0)
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
func (s *Service) lookup(ctx context.Context, key string, op, attempt int32) (int64, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.Gateway+PathLookup+"?key="+url.QueryEscape(key), nil)
	if err != nil {
		return 0, false, fmt.Errorf("lookup: %w", err)
	}
	setIdentity(req.Header, op, attempt)
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.Gateway+PathCrash+"?"+q.Encode(), nil)
	if err != nil {
		return
	}
	resp, err := s.ctl.Do(req)
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
