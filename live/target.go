package live

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/scenarios/roles/payments"
	"github.com/oncesim/once/sim"
)

// ProviderEnv is the environment variable the user's service reads the
// provider's base URL from, under --target.
const ProviderEnv = "ONCE_PROVIDER_URL"

// DefaultProviderAddr is where the provider's fault layer listens under
// --target unless told otherwise: a fixed address, so the user's service
// can be started with it before once live runs.
const DefaultProviderAddr = "127.0.0.1:47110"

// serviceHost is where the payment service runs: once's own process
// (supervisor), or the user's service at a fixed URL.
type serviceHost interface {
	start() error
	stop()
	Target() string
	Settled() bool
	Err() error
}

// fixedHost is the user's own service: started and stopped by the user,
// never crashed by once.
type fixedHost string

func (h fixedHost) start() error   { return nil }
func (h fixedHost) stop()          {}
func (h fixedHost) Target() string { return string(h) }
func (h fixedHost) Settled() bool  { return true }
func (h fixedHost) Err() error     { return nil }

// CheckTarget reports, in one line, why target may not be driven: not an
// http URL, or a host outside the loopback range without allowRemote — a
// fault-injecting client must not be pointed at production by a typo.
func CheckTarget(target string, allowRemote bool) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--target %q: want an http:// URL of your payment service", target)
	}
	if allowRemote {
		return nil
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--target %s: %s is not a loopback address; give --allow-remote to drive a service elsewhere", target, host)
}

// SupportsTarget reports, as one line wrapping ErrNotLive, what of cfg
// live cannot do against the user's service: it has no process to pause
// and no statement boundary to hold a request at, and crashes it only by
// the user's restart command (restart: --restart-cmd given).
func SupportsTarget(cfg *sim.Config, faults *sim.FaultProfile, restart bool) error {
	p, err := findParts(cfg)
	if err != nil {
		return err
	}
	if p.checked != nil {
		return fmt.Errorf("%w: --target: this scenario's key store steps are once's own service's; pick a payment-service scenario", ErrNotLive)
	}
	if p.intent != nil {
		return fmt.Errorf("%w: --target: this scenario's reconciler reports to once's own intent service; pick a payment-service scenario", ErrNotLive)
	}
	if p.rest != nil {
		return fmt.Errorf("%w: --target: the rest-service scenarios' users are not in the --target contract; pick a payment-service scenario", ErrNotLive)
	}
	if restart && (faults == nil || faults.Probability[sim.FaultCrash] == 0) {
		return fmt.Errorf("%w: --restart-cmd: --crash is 0, so nothing would run it; give --crash P", ErrNotLive)
	}
	if faults != nil && faults.Probability[sim.FaultCrash] > 0 {
		if !restart {
			return fmt.Errorf("%w: --crash: with --target once kills your service only by your command: give --restart-cmd CMD (kill and restart it) or --crash 0", ErrNotLive)
		}
		if _, ok := cfg.Nodes[p.service].(*payments.PaymentService); !ok {
			return fmt.Errorf("%w: --crash with --restart-cmd: once asks the crash points of the payment-service only; this scenario's service is another", ErrNotLive)
		}
	}
	for k, name := range map[sim.FaultKind]string{sim.FaultPause: "--pause", sim.FaultPreempt: "--preempt"} {
		if faults != nil && faults.Probability[k] > 0 {
			return fmt.Errorf("%w: %s: with --target once cannot freeze your process or hold a request between two of its statements; give %s 0", ErrNotLive, name, name)
		}
	}
	return nil
}

// inferCharge names a charge from the user's service, which carries no
// identity headers: the operation from the amount (the client pays
// roles.Payload(op)), the attempt as the latest attempt of that operation
// the client sent.
func inferCharge(dec *Decider, ops int) func(r *http.Request, body []byte) (int32, int32, bool) {
	return func(r *http.Request, body []byte) (int32, int32, bool) {
		var req struct {
			Amount int64 `json:"amount"`
		}
		if json.Unmarshal(body, &req) != nil {
			return 0, 0, false
		}
		op := req.Amount - roles.Payload(0)
		if op < 1 || op > int64(ops) {
			return 0, 0, false
		}
		return int32(op), dec.LastAttempt(int32(op)), true
	}
}

// attempts remembers the latest attempt the client sent per operation.
type attempts struct {
	mu   sync.Mutex
	last map[int32]int32
}

func (a *attempts) sent(op, attempt int32) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		a.last = map[int32]int32{}
	}
	a.last[op] = max(a.last[op], attempt)
}

func (a *attempts) of(op int32) int32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return max(a.last[op], 1)
}
