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
//   - the response is stored (COMPLETED) before it is sent.
//
//     eval "$(once live --print-env)"
//     go run ./examples/live/go/idempotent 8003 &
//     once live double-billing --semantics idem --target http://127.0.0.1:8003 --check   # exit 0
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
	"net/http"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite"
)

var (
	provider = envOr("ONCE_PROVIDER_URL", "http://127.0.0.1:47110")
	db       *sql.DB
)

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func charge(amount int64, key string) (int64, error) {
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
	res, err := db.Exec("INSERT INTO idempotency_keys (key, request_hash, status) VALUES (?, ?, 'PROCESSING') ON CONFLICT (key) DO NOTHING", key, hash)
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
	txn, err := charge(req.Amount, key)
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
	dir, err := os.MkdirTemp("", "idem-go-")
	if err != nil {
		log.Fatal(err)
	}
	db, err = sql.Open("sqlite", "file:"+filepath.Join(dir, "keys.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, request_hash TEXT NOT NULL,
		status TEXT NOT NULL, response_code INTEGER, response_body TEXT)`); err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("POST /payments", pay)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}
