package live

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every run's workspace — a temporary directory for SQLite, a schema for
// PostgreSQL — is named after the process that owns it, so that a run
// killed with SIGKILL (no deferred cleanup runs) leaves something the next
// run recognises as an orphan: once-live-PID-… and once_live_PID_HOST_….
// The next run sweeps those whose owner is gone.

// hostTag names this machine in schema names: a database shared by
// several machines sees pids of others, and a run sweeps only its own
// machine's.
func hostTag() string {
	h, _ := os.Hostname()
	sum := sha256.Sum256([]byte(h))
	return hex.EncodeToString(sum[:3])
}

// alive reports whether a process with that pid exists on this machine.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// tempPrefix is the name of a run's temporary directory, before its pid.
const tempPrefix = "once-live-"

// ownerOfDir returns the pid in a directory name once-live-PID-…, 0 if it
// has none.
func ownerOfDir(name string) int {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0
	}
	pid, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(pid)
	if err != nil {
		return 0
	}
	return n
}

// schemaName is the schema of one run: once_live_PID_HOST_RANDOM.
func schemaName(pid int) (string, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("live: schema name: %w", err)
	}
	return fmt.Sprintf("once_live_%d_%s_%s", pid, hostTag(), hex.EncodeToString(b[:])), nil
}

// ownerOfSchema returns the pid of a schema once_live_PID_HOST_… made on
// this machine, 0 otherwise.
func ownerOfSchema(name string) int {
	parts := strings.Split(name, "_")
	if len(parts) != 5 || parts[0] != "once" || parts[1] != "live" || parts[3] != hostTag() {
		return 0
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		return 0
	}
	return n
}

// ownerOfLog returns the pid in a --restart-cmd log's name
// once-restart-PID-….log, 0 if it has none.
func ownerOfLog(name string) int {
	rest, ok := strings.CutPrefix(name, restartLogPrefix)
	if !ok || !strings.HasSuffix(name, ".log") {
		return 0
	}
	return ownerOfDir(tempPrefix + rest)
}

// SweepTemp removes the temporary directories and --restart-cmd logs of
// runs whose owner is gone and returns their paths.
func SweepTemp(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var gone []string
	for _, e := range entries {
		pid := ownerOfDir(e.Name())
		if !e.IsDir() {
			pid = 0
			if e.Type().IsRegular() {
				pid = ownerOfLog(e.Name())
			}
		}
		if pid == 0 || alive(pid) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if os.RemoveAll(p) == nil {
			gone = append(gone, p)
		}
	}
	return gone
}

// SweepSchemas drops the schemas of runs on this machine whose owner is
// gone and returns their names.
func SweepSchemas(ctx context.Context, admin *DB) ([]string, error) {
	rows, err := admin.Query(ctx, "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'once\\_live\\_%' ORDER BY nspname")
	if err != nil {
		return nil, fmt.Errorf("live: list schemas: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("live: list schemas: %w", err)
		}
		names = append(names, n)
	}
	rows.Close()
	var gone []string
	for _, n := range names {
		if pid := ownerOfSchema(n); pid == 0 || alive(pid) {
			continue
		}
		if dropSchema(admin, n) == nil {
			gone = append(gone, n)
		}
	}
	return gone, nil
}

// dropAttempts is how often a schema drop is tried before it is given up
// (the next run's sweep takes it then).
const dropAttempts = 3

// dropSchema drops a schema, retrying a failed drop (a lock held by a
// connection that is closing) with a short pause.
func dropSchema(admin *DB, schema string) error {
	var err error
	for i := 0; i < dropAttempts; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
		_, err = admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return fmt.Errorf("live: drop schema %s: %w", schema, err)
}

// workspace makes the run's database: a SQLite file in a temporary
// directory named after this process, or a fresh schema of the PostgreSQL
// database dsn, after sweeping the orphans of killed runs. It returns the
// DSN the run uses; its removal is added to cleanups.
func workspace(ctx context.Context, dsn string, cleanups *[]func()) (string, error) {
	pid := os.Getpid()
	if dsn == "" {
		SweepTemp(os.TempDir())
		dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", tempPrefix, pid))
		if err != nil {
			return "", fmt.Errorf("live: temporary directory: %w", err)
		}
		*cleanups = append(*cleanups, func() { os.RemoveAll(dir) })
		return filepath.Join(dir, "once-live.db"), nil
	}
	scoped, drop, err := postgresSchema(ctx, dsn, pid)
	if err != nil {
		return "", err
	}
	*cleanups = append(*cleanups, drop)
	return scoped, nil
}

// lostAfter is how long the database may fail to answer before the run
// fails: a database that disappears mid-run is one line within seconds,
// not a run that waits for its deadline.
const lostAfter = 3 * time.Second

// watchDatabase pings db while ctx lasts; when it has not answered for
// lostAfter, it cancels the run. The function it returns tells why the
// run was cancelled, nil if not for a lost database.
func watchDatabase(ctx context.Context, db *DB, cancel func()) func() error {
	var mu sync.Mutex
	var lost error
	go func() {
		var failingSince time.Time
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			pctx, pcancel := context.WithTimeout(ctx, time.Second)
			err := db.PingContext(pctx)
			if err == nil {
				var one int
				err = db.QueryRowContext(pctx, "SELECT 1").Scan(&one)
			}
			pcancel()
			switch {
			case err == nil:
				failingSince = time.Time{}
			case ctx.Err() != nil:
				return
			case failingSince.IsZero():
				failingSince = time.Now()
			case time.Since(failingSince) >= lostAfter:
				mu.Lock()
				lost = fmt.Errorf("live: lost the database (%s unanswered): %v", lostAfter, firstLine(err))
				mu.Unlock()
				cancel()
				return
			}
		}
	}()
	return func() error {
		mu.Lock()
		defer mu.Unlock()
		return lost
	}
}

// firstLine keeps an error message to one line: its first line, then the
// others joined with "; ", each said once. pgx puts the cause of a failed
// connection on the lines after "failed to connect to `user=…
// database=…`:", one per address tried: cutting at the first newline left
// the cause out.
func firstLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !slices.Contains(parts, l) {
			parts = append(parts, l)
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return parts[0] + " " + strings.Join(parts[1:], "; ")
}
