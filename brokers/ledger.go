package brokers

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	_ "modernc.org/sqlite" // the ledger's driver, as live's
)

// ledgerSchema is the run's SQLite database: the effects (charges, one
// row each, counted per operation as live counts its charges table), the
// dedup rows written in the same transaction as an effect, the fencing
// counter and the highest token the ledger has seen per job.
const ledgerSchema = `
CREATE TABLE IF NOT EXISTS charges (id INTEGER PRIMARY KEY AUTOINCREMENT, op INTEGER NOT NULL, by_node TEXT NOT NULL, token INTEGER NOT NULL DEFAULT 0, delivery INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS processed (op INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS fence (job INTEGER PRIMARY KEY, token INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
INSERT OR IGNORE INTO tokens (id, n) VALUES (1, 0);
`

// createLedger creates the ledger of a run in dir, its schema there before
// any process of the run opens it.
func createLedger(dir string) error {
	db, err := openLedger(ledgerPath(dir))
	if err != nil {
		return err
	}
	db.Close()
	return nil
}

// openLedger opens (and creates) the SQLite ledger in dir: WAL and a busy
// timeout, as live's, so worker processes and the driver share it.
func openLedger(path string) (*sql.DB, error) {
	dsn := "file:" + filepath.ToSlash(path) + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("brokers: open the ledger %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	if _, err := db.Exec(ledgerSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("brokers: the ledger's schema: %w", err)
	}
	return db, nil
}

// effects counts the charges per operation: SELECT op, count(*) FROM
// charges GROUP BY op.
func effects(ctx context.Context, db *sql.DB) (map[int]int, error) {
	rows, err := db.QueryContext(ctx, "SELECT op, count(*) FROM charges GROUP BY op")
	if err != nil {
		return nil, fmt.Errorf("brokers: count the effects: %w", err)
	}
	defer rows.Close()
	n := map[int]int{}
	for rows.Next() {
		var op, c int
		if err := rows.Scan(&op, &c); err != nil {
			return nil, fmt.Errorf("brokers: count the effects: %w", err)
		}
		n[op] = c
	}
	return n, rows.Err()
}

// nextToken takes the next fencing token from the ledger's counter: a
// number greater than every one handed out before (a database sequence,
// never Redis: SET NX PX answers OK or nil).
func nextToken(ctx context.Context, db *sql.DB) (int64, error) {
	var n int64
	err := db.QueryRowContext(ctx, "UPDATE tokens SET n = n + 1 WHERE id = 1 RETURNING n").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("brokers: next fencing token: %w", err)
	}
	return n, nil
}

// writeFenced applies job op's write by node with token, in one
// transaction: with fencing, a token lower than the highest seen for the
// job is refused (false); without, every write is applied.
func writeFenced(ctx context.Context, db *sql.DB, op int, node string, token int64, fencing bool) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("brokers: ledger write: %w", err)
	}
	defer tx.Rollback()
	if fencing {
		var seen int64
		err := tx.QueryRowContext(ctx, "SELECT token FROM fence WHERE job = ?", op).Scan(&seen)
		if err != nil && err != sql.ErrNoRows {
			return false, fmt.Errorf("brokers: ledger write: %w", err)
		}
		if err == nil && token < seen {
			return false, nil
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO fence (job, token) VALUES (?, ?) ON CONFLICT (job) DO UPDATE SET token = excluded.token", op, token); err != nil {
			return false, fmt.Errorf("brokers: ledger write: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO charges (op, by_node, token) VALUES (?, ?, ?)", op, node, token); err != nil {
		return false, fmt.Errorf("brokers: ledger write: %w", err)
	}
	return true, tx.Commit()
}

// chargeOnce charges op in the same transaction as its dedup row: a
// delivery of an operation already processed charges nothing (false).
func chargeOnce(ctx context.Context, db *sql.DB, op int, node string, delivery int) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("brokers: charge: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "INSERT INTO processed (op) VALUES (?) ON CONFLICT (op) DO NOTHING", op)
	if err != nil {
		return false, fmt.Errorf("brokers: charge: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO charges (op, by_node, delivery) VALUES (?, ?, ?)", op, node, delivery); err != nil {
		return false, fmt.Errorf("brokers: charge: %w", err)
	}
	return true, tx.Commit()
}

// charge charges op with no dedup row.
func charge(ctx context.Context, db *sql.DB, op int, node string, delivery int) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO charges (op, by_node, delivery) VALUES (?, ?, ?)", op, node, delivery); err != nil {
		return fmt.Errorf("brokers: charge: %w", err)
	}
	return nil
}
