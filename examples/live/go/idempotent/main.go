// Command idempotent is a payment service that follows the
// Idempotency-Key pattern, its keys in SQLite (modernc.org/sqlite):
//
//   - no key: 400; a key longer than 255: 400;
//
//   - INSERT the key as PROCESSING under its primary key *before* the
//     provider is called; a key already there answers 422 when the body
//     differs, 409 while PROCESSING, the stored response when COMPLETED
//     (with Idempotent-Replayed: true);
//
//   - the provider is charged with the same key;
//
//   - the response is stored (COMPLETED) before it is sent;
//
//   - at start, every key a crash left PROCESSING is resolved by asking
//     the provider by the key (charged: the response is stored; not
//     charged: the charge is made now, with the key) before it listens.
//
// Restartable (once live --restart-cmd, see ../../restart.sh): the keys
// live in $KEYS_DB (when unset, a temporary folder removed on Ctrl-C or
// SIGTERM) and the pid is written to $PIDFILE once the service listens.
//
//	eval "$(once live --print-env)"
//	go run ./examples/live/go/idempotent 8003 &
//	once live double-billing --semantics idem --target http://127.0.0.1:8003 --check   # exit 0
package main

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

var (
	provider = envOr("ONCE_PROVIDER_URL", "http://127.0.0.1:47110")
	db       *sql.DB
	// tmpDir, when KEYS_DB is unset, is the temporary folder the keys
	// live in, removed when the service stops (Ctrl-C, SIGTERM, a fatal
	// error). A SIGKILL leaves it: give KEYS_DB where a supervisor kills.
	tmpDir string
)

// fatal removes the temporary folder, if any, and exits with err.
func fatal(err error) {
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
	}
	log.Fatal(err)
}

// providerFor is the provider a payment is charged at: the run's own,
// which once live sends as X-Once-Provider (a port per run, so parallel
// runs cannot meet), else $ONCE_PROVIDER_URL. A test hook: a production
// service never takes a URL to call from its caller.
func providerFor(r *http.Request) string {
	if p := r.Header.Get("X-Once-Provider"); p != "" {
		return p
	}
	return provider
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func charge(provider string, amount int64, key string) (int64, error) {
	body, _ := json.Marshal(map[string]int64{"amount": amount})
	req, err := http.NewRequest(http.MethodPost, provider+"/charges", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		TxnID int64 `json:"txn_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusCreated {
		return 0, fmt.Errorf("provider answered %s", resp.Status)
	}
	return out.TxnID, nil
}

func problem(w http.ResponseWriter, code int, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"type": "about:blank", "title": http.StatusText(code), "status": code, "detail": detail})
}

func pay(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	switch {
	case key == "":
		problem(w, http.StatusBadRequest, "the Idempotency-Key header is required")
		return
	case len(key) > 255:
		problem(w, http.StatusBadRequest, "the Idempotency-Key is longer than 255 characters")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	var req struct {
		Amount int64 `json:"amount"`
	}
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		problem(w, http.StatusBadRequest, "the body is not a payment")
		return
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	res, err := db.Exec("INSERT INTO idempotency_keys (key, request_hash, status, amount) VALUES (?, ?, 'PROCESSING', ?) ON CONFLICT (key) DO NOTHING", key, hash, req.Amount)
	if err != nil {
		problem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var oldHash, status string
		var code sql.NullInt64
		var stored sql.NullString
		if err := db.QueryRow("SELECT request_hash, status, response_code, response_body FROM idempotency_keys WHERE key = ?", key).
			Scan(&oldHash, &status, &code, &stored); err != nil {
			problem(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		switch {
		case oldHash != hash:
			problem(w, http.StatusUnprocessableEntity, "this Idempotency-Key was used with another request")
		case status == "PROCESSING":
			problem(w, http.StatusConflict, "a request with this Idempotency-Key is in flight")
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(int(code.Int64))
			io.WriteString(w, stored.String)
		}
		return
	}
	txn, err := charge(providerFor(r), req.Amount, key)
	if err != nil {
		db.Exec("DELETE FROM idempotency_keys WHERE key = ? AND status = 'PROCESSING'", key) // a retry may try again
		problem(w, http.StatusBadGateway, err.Error())
		return
	}
	resp, _ := json.Marshal(map[string]int64{"status": 201, "txn_id": txn})
	if _, err := db.Exec("UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 201, response_body = ? WHERE key = ?", string(resp), key); err != nil {
		problem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	w.Write(resp)
}

func main() {
	port := "8003"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	file := os.Getenv("KEYS_DB")
	if file == "" {
		dir, err := os.MkdirTemp("", "idem-go-")
		if err != nil {
			log.Fatal(err) // nothing to remove yet
		}
		tmpDir, file = dir, filepath.Join(dir, "keys.db")
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-stop
			if db != nil {
				db.Close()
			}
			os.RemoveAll(tmpDir)
			os.Exit(0)
		}()
	}
	var err error
	db, err = sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (key TEXT PRIMARY KEY, request_hash TEXT NOT NULL,
		status TEXT NOT NULL, amount INTEGER, response_code INTEGER, response_body TEXT)`); err != nil {
		fatal(err)
	}
	if err := recoverKeys(); err != nil {
		fatal(err)
	}
	http.HandleFunc("POST /payments", pay)
	serve(port)
}

// lookup asks the provider for the charge under key: found false when it
// knows none (404) or cannot look up (501).
func lookup(key string) (txn int64, found bool, err error) {
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(provider + "/charges/lookup?key=" + url.QueryEscape(key))
	if err != nil {
		return 0, false, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusNotImplemented:
		return 0, false, nil
	case http.StatusOK:
		var out struct {
			TxnID int64 `json:"txn_id"`
		}
		err := json.NewDecoder(resp.Body).Decode(&out)
		return out.TxnID, err == nil, err
	}
	return 0, false, fmt.Errorf("provider lookup answered %s", resp.Status)
}

// recoverKeys resolves every key a crash left PROCESSING, before listening; a
// key the provider cannot be asked about now stays PROCESSING (409) until
// the next start.
func recoverKeys() error {
	rows, err := db.Query("SELECT key, amount FROM idempotency_keys WHERE status = 'PROCESSING'")
	if err != nil {
		return err
	}
	type stuck struct {
		key    string
		amount int64
	}
	var keys []stuck
	for rows.Next() {
		var k stuck
		if err := rows.Scan(&k.key, &k.amount); err != nil {
			rows.Close()
			return err
		}
		keys = append(keys, k)
	}
	rows.Close()
	for _, k := range keys {
		txn, found, err := lookup(k.key)
		if err == nil && !found {
			txn, err = charge(provider, k.amount, k.key)
		}
		if err != nil {
			continue
		}
		resp, _ := json.Marshal(map[string]int64{"status": 201, "txn_id": txn})
		if _, err := db.Exec("UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 201, response_body = ? WHERE key = ?", string(resp), k.key); err != nil {
			return err
		}
	}
	return nil
}

// serve listens on 127.0.0.1:port — retrying for 5 s while a killed
// predecessor still holds the port — writes the pid to $PIDFILE once it
// listens (../restart.sh waits for it), and serves.
func serve(port string) {
	var ln net.Listener
	var err error
	for range 100 {
		if ln, err = net.Listen("tcp", "127.0.0.1:"+port); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		fatal(err)
	}
	if f := os.Getenv("PIDFILE"); f != "" {
		if err := os.WriteFile(f+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			fatal(err)
		}
		if err := os.Rename(f+".tmp", f); err != nil {
			fatal(err)
		}
	}
	fatal(http.Serve(ln, nil))
}
