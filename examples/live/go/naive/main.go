// Command naive is a naive payment service: every POST /payments is a new
// charge at the provider. once live --target finds its bug: a retry after
// a lost response charges the card again.
//
//	eval "$(once live --print-env)"
//	go run ./examples/live/go/naive 8002 &
//	once live double-billing --semantics idem --target http://127.0.0.1:8002 --check   # exit 1
//
// Restartable (once live --restart-cmd, see ../../restart.sh): it keeps no
// state, and writes its pid to $PIDFILE once it listens.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

var provider = envOr("ONCE_PROVIDER_URL", "http://127.0.0.1:47110")

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
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

// charge asks the provider for a charge and returns its id.
func charge(provider string, amount int64, key string) (int64, error) {
	body, _ := json.Marshal(map[string]int64{"amount": amount})
	req, err := http.NewRequest(http.MethodPost, provider+"/charges", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
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
	var req struct {
		Amount int64 `json:"amount"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req); err != nil {
		problem(w, http.StatusBadRequest, err.Error())
		return
	}
	txn, err := charge(providerFor(r), req.Amount, "") // the bug: no key, no memory of earlier attempts
	if err != nil {
		problem(w, http.StatusBadGateway, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]int64{"status": 201, "txn_id": txn})
}

func main() {
	port := "8002"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	http.HandleFunc("POST /payments", pay)
	serve(port)
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
		log.Fatal(err)
	}
	if f := os.Getenv("PIDFILE"); f != "" {
		if err := os.WriteFile(f+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(f+".tmp", f); err != nil {
			log.Fatal(err)
		}
	}
	log.Fatal(http.Serve(ln, nil))
}
