package live

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
// http URL, a port out of range, or a host outside the loopback range
// without allowRemote — a fault-injecting client must not be pointed at
// production by a typo. A password in the URL is masked in the message.
func CheckTarget(target string, allowRemote bool) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return refuse("live_target_url", map[string]any{"Target": MaskURL(target)}, fmt.Sprintf("--target %q: want an http:// URL of your payment service", MaskURL(target)))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return refuse("live_target_port", map[string]any{"Target": MaskURL(target), "Port": p}, fmt.Sprintf("--target %s: port %s: want 1 to 65535", MaskURL(target), p))
		}
	}
	if allowRemote || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return refuse("live_target_remote", map[string]any{"Target": MaskURL(target), "Host": u.Hostname()}, fmt.Sprintf("--target %s: %s is not a loopback address; give --allow-remote to drive a service elsewhere", MaskURL(target), u.Hostname()))
}

// isLoopbackHost reports whether host is localhost or an address of
// 127.0.0.0/8 or ::1.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// MaskURL is u with the password of its userinfo, if any, written "***",
// as --db's is, for every message that names --target; a string that
// does not parse is returned with all before its last "@" masked.
func MaskURL(u string) string {
	if parsed, err := url.Parse(u); err == nil {
		if _, has := parsed.User.Password(); has && parsed.Scheme != "" {
			user := url.User(parsed.User.Username()).String()
			parsed.User = nil
			rest, _ := strings.CutPrefix(parsed.String(), parsed.Scheme+"://")
			return parsed.Scheme + "://" + user + ":***@" + rest
		}
		return parsed.String()
	}
	if at := strings.LastIndex(u, "@"); at >= 0 {
		return "***" + u[at:]
	}
	return u
}

// CheckListenAddr reports, in one line, why the provider may not listen
// at addr (--provider-addr): not HOST:PORT, a port out of range, a host
// that is not an IP address or a plain host name, or — without
// allowRemote — an address off loopback: "0.0.0.0", "::" and ":PORT"
// listen on every interface. Port 0 picks a free port.
func CheckListenAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return refuse("live_provider_addr", map[string]any{"Addr": addr, "Example": DefaultProviderAddr}, fmt.Sprintf("--provider-addr %q: want HOST:PORT, such as %s", addr, DefaultProviderAddr))
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != port {
		return refuse("live_provider_port", map[string]any{"Addr": addr, "Port": port}, fmt.Sprintf("--provider-addr %q: port %q: want 0 to 65535", addr, port))
	}
	if host != "" && net.ParseIP(host) == nil && !plainHostName(host) {
		return refuse("live_provider_host", map[string]any{"Addr": addr, "Host": host}, fmt.Sprintf("--provider-addr %q: host %q: want an IP address or a host name", addr, host))
	}
	if allowRemote || isLoopbackHost(host) {
		return nil
	}
	if host == "" || net.ParseIP(host).IsUnspecified() {
		return refuse("live_provider_everywhere", map[string]any{"Addr": addr}, fmt.Sprintf("--provider-addr %s: would listen on every interface, not loopback; give --allow-remote to let a service elsewhere reach it", addr))
	}
	return refuse("live_provider_remote", map[string]any{"Addr": addr, "Host": host}, fmt.Sprintf("--provider-addr %s: would listen on %s, not loopback; give --allow-remote to let a service elsewhere reach it", addr, host))
}

// plainHostName reports whether s is a DNS host name: labels of letters,
// digits and hyphens, dot-separated — nothing a shell would read.
func plainHostName(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// ShellQuote quotes s for a POSIX shell: in single quotes, each single
// quote of s closing the quotes, escaped, and reopening them — eval of the
// result gives s back and runs nothing.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// EnvLine is the line --print-env prints for the provider at addr:
// export ONCE_PROVIDER_URL='http://ADDR', the value shell-quoted (addr is
// checked by CheckListenAddr before).
func EnvLine(addr string) string {
	return "export " + ProviderEnv + "=" + ShellQuote("http://"+addr)
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
	if p.checked != nil && p.checked.StoreTimeout > 0 {
		return notLive("live_target_store_outage", nil, "--target: this scenario's key store outage is once's own key store's; pick a payment-service scenario")
	}
	if p.intent != nil {
		return notLive("live_target_reconciler", nil, "--target: this scenario's reconciler reports to once's own intent service; pick a payment-service scenario")
	}
	if p.rest != nil {
		return notLive("live_target_rest", nil, "--target: the rest-service scenarios' users are not in the --target contract; pick a payment-service scenario")
	}
	if restart && (faults == nil || faults.Probability[sim.FaultCrash] == 0) {
		return notLive("live_restart_no_crash", nil, "--restart-cmd: --crash is 0, so nothing would run it; give --crash P")
	}
	if faults != nil && faults.Probability[sim.FaultCrash] > 0 {
		if !restart {
			return notLive("live_crash_without_restart", nil, "--crash: with --target once kills your service only by your command: give --restart-cmd CMD (kill and restart it) or --crash 0")
		}
		if _, ok := cfg.Nodes[p.service].(*payments.PaymentService); !ok {
			return notLive("live_crash_other_service", nil, "--crash with --restart-cmd: once asks the crash points of the payment-service only; this scenario's service is another")
		}
	}
	for k, name := range map[sim.FaultKind]string{sim.FaultPause: "--pause", sim.FaultPreempt: "--preempt"} {
		if faults != nil && faults.Probability[k] > 0 {
			return notLive("live_target_cannot_hold", map[string]any{"Flag": name}, fmt.Sprintf("%s: with --target once cannot freeze your process or hold a request between two of its statements; give %s 0", name, name))
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
