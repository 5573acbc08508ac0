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
	// HeaderSentAt is when the client meant to send a request, in
	// microseconds since the run began: the fault layer's delays count
	// from there.
	HeaderSentAt = "X-Once-Sent-At"
	// HeaderNow is the run's virtual time, in milliseconds, at which the
	// fault layer delivers a request to the payment service.
	HeaderNow = "X-Once-Now"
	// HeaderProvider is the provider's base URL of the run, sent with
	// every request to a --target service: a service that charges there
	// (rather than at $ONCE_PROVIDER_URL) can serve runs with providers of
	// their own at once (--provider-addr 127.0.0.1:0, a port per run).
	HeaderProvider = "X-Once-Provider"
	// HeaderReplayed marks a response replayed from the key store, as
	// Brandur's and Stripe's services do.
	HeaderReplayed = "Idempotent-Replayed"

	PathPayments = "/payments"       // payment service: POST a payment
	PathCharges  = "/charges"        // gateway: POST a charge
	PathLookup   = "/charges/lookup" // gateway: GET ?key=… what happened to this key
	PathCrash    = "/_once/crash"    // fault layer: GET ?point=…&msg=…: kill or go-on at this crash point
	PathStore    = "/_once/store"    // fault layer: GET ?step=before|after&msg=…: the key store's fate of one statement
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
	// Balance is the payments made so far, on a rest-service's receipt.
	Balance int64 `json:"balance,omitempty"`
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

// problemType is the media type of error answers (RFC 9457, the IETF
// Idempotency-Key draft's error format).
const problemType = "application/problem+json"

// problemDetails is an error answer's body.
type problemDetails struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
}

func problemBody(code int, detail string) []byte {
	body, _ := json.Marshal(problemDetails{Type: "about:blank", Title: http.StatusText(code), Status: code, Detail: detail})
	return body
}

// writeProblem answers an error as application/problem+json.
func writeProblem(w http.ResponseWriter, code int, detail string) {
	w.Header().Set("Content-Type", problemType)
	w.WriteHeader(code)
	w.Write(problemBody(code, detail))
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
