package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// ServeMain is the payment service process: the hidden subcommand the
// live run starts (and restarts after a crash) as an OS process of its
// own. It recovers the keys a crash left PROCESSING, listens on a free
// port of 127.0.0.1, writes "listening ADDR" as its first line of output,
// and serves until its standard input closes — so it never outlives the
// run that started it, whatever way that run ends.
func ServeMain(configJSON string, stdin io.Reader, stdout io.Writer) error {
	var cfg ServiceConfig
	if err := json.Unmarshal([]byte(configJSON), &cfg); err != nil {
		return fmt.Errorf("live-serve: config: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // the parent is gone or done: stop
		io.Copy(io.Discard, stdin)
		cancel()
	}()
	db, err := Open(cfg.DSN)
	if err != nil {
		return err
	}
	defer db.Close()
	s := &Service{cfg: cfg, db: db, die: killSelf,
		http: &http.Client{Timeout: time.Duration(max(cfg.TimeoutMs, 1)) * time.Millisecond,
			Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}},
		ctl: &http.Client{Timeout: time.Duration(max(cfg.TimeoutMs, 1)) * time.Millisecond,
			Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 32}}}
	if cfg.Durable {
		s.keys = sqlKeys{db}
	} else {
		s.keys = newMemKeys()
	}
	if err := db.PingContext(ctx); err != nil { // a connection ready before the first request
		return fmt.Errorf("live-serve: database: %w", err)
	}
	if err := s.Recover(ctx); err != nil {
		return fmt.Errorf("live-serve: recovery: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("live-serve: listen: %w", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	if _, err := fmt.Fprintf(stdout, "listening %s\n", ln.Addr()); err != nil {
		ln.Close()
		return fmt.Errorf("live-serve: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("live-serve: %w", err)
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("live-serve: shutdown: %w", err)
	}
	return nil
}
