package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// The HTTP surface of the live services. Op and attempt travel in headers
// of their own: they are the instrumentation that lets the fault layer name
// a message the way the simulator does (a real client would send only the
// Idempotency-Key).
const (
	HeaderIdempotencyKey = "Idempotency-Key"
	HeaderOp             = "X-Once-Op"
	HeaderAttempt        = "X-Once-Attempt"

	PathPayments = "/payments"       // payment service: POST a payment
	PathCharges  = "/charges"        // gateway: POST a charge
	PathLookup   = "/charges/lookup" // gateway: GET ?key=… what happened to this key
	PathCrash    = "/_once/crash"    // fault layer: GET ?point=…&msg=…: kill or go-on at this crash point
)

// maxBody bounds every request and response body the live services read.
const maxBody = 1 << 16

// paymentRequest is the body of POST /payments.
type paymentRequest struct {
	Amount int64 `json:"amount"`
}

// paymentResponse is the body of the payment service's answers.
type paymentResponse struct {
	Status int    `json:"status"`
	TxnID  int64  `json:"txn_id,omitempty"`
	Error  string `json:"error,omitempty"`
}

// chargeRequest is the body of POST /charges.
type chargeRequest struct {
	Key     string `json:"key,omitempty"`
	Op      int32  `json:"op"`
	Attempt int32  `json:"attempt"`
	Amount  int64  `json:"amount"`
}

// chargeResponse is the gateway's answer to a charge or a lookup.
type chargeResponse struct {
	TxnID int64 `json:"txn_id"`
}

// identity reads the op and attempt headers of r.
func identity(h http.Header) (int32, int32, error) {
	op, err := strconv.ParseInt(h.Get(HeaderOp), 10, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("header %s: %w", HeaderOp, err)
	}
	attempt, err := strconv.ParseInt(h.Get(HeaderAttempt), 10, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("header %s: %w", HeaderAttempt, err)
	}
	return int32(op), int32(attempt), nil
}

func setIdentity(h http.Header, op, attempt int32) {
	h.Set(HeaderOp, strconv.Itoa(int(op)))
	h.Set(HeaderAttempt, strconv.Itoa(int(attempt)))
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(body)
}

func readJSON(r io.Reader, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, maxBody))
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// The fault layer's answers at a crash point.
const (
	oracleKill = "kill"  // die now
	oracleGoOn = "go-on" // carry on
)
