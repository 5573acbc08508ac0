package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"time"
)

// reachTimeout bounds each step of the probe of --target: the connection,
// and the answer to one GET.
const reachTimeout = 3 * time.Second

// readyEvery is how often --target-ready asks again.
const readyEvery = 100 * time.Millisecond

// Reachable asks --target once, before anything starts, whether an HTTP
// server answers there: a target that refuses connections, does not
// answer, or answers something that is not HTTP is one line within
// seconds ("connection refused: nothing listens on …"), not a run whose
// requests all vanish until its deadline.
func Reachable(ctx context.Context, target string) error {
	return WaitReady(ctx, target, 0, nil)
}

// WaitReady is Reachable that asks again, every 100 ms, for up to ready
// (--target-ready: a service still starting), and then fails with the
// last reason and how long it waited. A service that answers only after
// some waiting is said on log (a slow start, with the time it took).
func WaitReady(ctx context.Context, target string, ready time.Duration, log io.Writer) error {
	return waitReady(ctx, target, ready, reachTimeout, log)
}

func waitReady(ctx context.Context, target string, ready, step time.Duration, log io.Writer) error {
	u, err := url.Parse(target)
	if err != nil { // url.Error holds the URL, password and all
		return fmt.Errorf("live: %w", refuse("live_target_url", map[string]any{"Target": MaskURL(target)}, fmt.Sprintf("--target %q: want an http:// URL of your payment service", MaskURL(target))))
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	began := time.Now()
	tries := 0
	for {
		tries++
		err := probe(ctx, addr, u.Host, step)
		if err == nil {
			if waited := time.Since(began); tries > 1 && log != nil {
				fmt.Fprintf(log, "live: --target %s answered after %.1f s (a slow start; --target-ready %s)\n",
					MaskURL(target), waited.Seconds(), ready)
			}
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("live: interrupted: %w", ctx.Err())
		}
		waited := time.Since(began)
		if waited+readyEvery > ready {
			if ready > 0 {
				return fmt.Errorf("live: --target %s: %w", MaskURL(target), refuse("live_not_ready", map[string]any{"Ready": ready.String(), "Reason": err}, fmt.Sprintf("not ready after --target-ready %s: %v", ready, err)))
			}
			return fmt.Errorf("live: --target %s: %w", MaskURL(target), err)
		}
		t := time.NewTimer(readyEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("live: interrupted: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// probe connects to addr and sends one GET / (host as the Host header),
// each step bounded by step; nil when an HTTP answer comes back, whatever
// its status. The error names what happened in words a user acts on.
func probe(ctx context.Context, addr, host string, step time.Duration) error {
	dctx, cancel := context.WithTimeout(ctx, step)
	defer cancel()
	c, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	switch {
	case err == nil:
	case errors.Is(err, syscall.ECONNREFUSED):
		return refuse("live_refused", map[string]any{"Addr": addr}, fmt.Sprintf("connection refused: nothing listens on %s (start your service first, or give --target-ready; docs/live.md)", addr))
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return refuse("live_connect_timeout", map[string]any{"Addr": addr, "Step": step.String()}, fmt.Sprintf("cannot connect to %s within %s: nothing answers there (a firewall, or a host that is down)", addr, step))
	default:
		return refuse("live_connect", map[string]any{"Addr": addr, "Err": err.Error()}, fmt.Sprintf("cannot connect to %s: %v", addr, err))
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(step))
	req := "GET / HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: once-live-probe\r\nConnection: close\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		return refuse("live_closed_at_once", map[string]any{"Addr": addr, "Err": err.Error()}, fmt.Sprintf("connected to %s, but it closed the connection at once: %v", addr, err))
	}
	br := bufio.NewReader(c)
	head, peekErr := br.Peek(1)
	if len(head) == 0 {
		var ne net.Error
		if errors.As(peekErr, &ne) && ne.Timeout() {
			return refuse("live_no_answer", map[string]any{"Addr": addr, "Step": step.String()}, fmt.Sprintf("connected to %s, but no answer to GET / within %s: is it an HTTP service, or is it stuck?", addr, step))
		}
		return refuse("live_closed_silent", map[string]any{"Addr": addr, "Err": fmt.Sprint(peekErr)}, fmt.Sprintf("connected to %s, but it closed the connection without an answer (%v)", addr, peekErr))
	}
	first, _ := br.Peek(min(br.Buffered(), 40)) // before the parse consumes it
	first = append([]byte(nil), first...)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return refuse("live_answer_unfinished", map[string]any{"Addr": addr, "Step": step.String()}, fmt.Sprintf("connected to %s, but its answer to GET / did not finish within %s", addr, step))
		}
		return refuse("live_not_http", map[string]any{"Addr": addr, "First": strconv.Quote(string(first))}, fmt.Sprintf("%s answered something that is not HTTP (%s…): is --target the port of your payment service?", addr, strconv.Quote(string(first))))
	}
	resp.Body.Close()
	return nil
}
