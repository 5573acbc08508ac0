package live

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite"
)

//go:embed migrations
var migrations embed.FS

// Dialect is the SQL database a run uses.
type Dialect string

// The dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is a database/sql handle that knows its dialect. Every statement is
// written once with ? placeholders; Rebind turns them into $1, $2… for
// PostgreSQL. The SQL patterns (INSERT … ON CONFLICT, RETURNING) are the
// same in both.
type DB struct {
	*sql.DB
	Dialect Dialect
}

// Rebind rewrites the ? placeholders of q for the dialect.
func (d *DB) Rebind(q string) string {
	if d.Dialect != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Exec runs a statement written with ? placeholders.
func (d *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return d.DB.ExecContext(ctx, d.Rebind(q), args...)
}

// QueryRow runs a query written with ? placeholders.
func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return d.DB.QueryRowContext(ctx, d.Rebind(q), args...)
}

// Query runs a query written with ? placeholders.
func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return d.DB.QueryContext(ctx, d.Rebind(q), args...)
}

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// sqliteDSN is the connection string of the SQLite file path: WAL so the
// service process and the gateway share it, a busy timeout so concurrent
// writers wait instead of failing, and immediate transactions so a
// transaction takes the write lock when it begins.
func sqliteDSN(file string) string {
	return "file:" + filepath.ToSlash(file) + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// Open connects to dsn: a PostgreSQL URL, or else the path of a SQLite
// file.
func Open(dsn string) (*DB, error) {
	if IsPostgres(dsn) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("live: open postgres: %w", err)
		}
		// Idle connections are kept: a connection opened per statement
		// costs more than a store timeout on a loaded machine.
		db.SetMaxOpenConns(8)
		db.SetMaxIdleConns(8)
		return &DB{DB: db, Dialect: Postgres}, nil
	}
	db, err := sql.Open("sqlite", sqliteDSN(dsn))
	if err != nil {
		return nil, fmt.Errorf("live: open sqlite %s: %w", dsn, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	return &DB{DB: db, Dialect: SQLite}, nil
}

// autoID is the auto-increment primary key of each dialect, put in place
// of the {{auto_id}} mark in migrations/tables.
var autoID = map[Dialect]string{
	Postgres: "BIGSERIAL PRIMARY KEY",
	SQLite:   "INTEGER PRIMARY KEY AUTOINCREMENT",
}

// Migrate applies the embedded migrations in name order, each once,
// recording it in schema_migrations. A migration is its file in
// migrations/tables (the tables, the same in both dialects) followed by its
// file in migrations/<dialect> (what the dialects write differently, such
// as triggers); either may be missing.
func (d *DB) Migrate(ctx context.Context) error {
	if _, err := d.Exec(ctx, "CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)"); err != nil {
		return fmt.Errorf("live: migrate: %w", err)
	}
	names, err := migrationNames(d.Dialect)
	if err != nil {
		return err
	}
	for _, name := range names {
		var one int
		err := d.QueryRow(ctx, "SELECT 1 FROM schema_migrations WHERE version = ?", name).Scan(&one)
		if err == nil {
			continue
		}
		if err != sql.ErrNoRows {
			return fmt.Errorf("live: migration %s: %w", name, err)
		}
		body, err := migrationBody(d.Dialect, name)
		if err != nil {
			return err
		}
		if _, err := d.DB.ExecContext(ctx, body); err != nil {
			return fmt.Errorf("live: migration %s: %w", name, err)
		}
		if _, err := d.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES (?)", name); err != nil {
			return fmt.Errorf("live: migration %s: %w", name, err)
		}
	}
	return nil
}

// migrationNames lists, sorted and once each, the .sql files of
// migrations/tables and migrations/<dialect>.
func migrationNames(dialect Dialect) ([]string, error) {
	seen := map[string]bool{}
	for _, dir := range []string{"tables", string(dialect)} {
		entries, err := fs.ReadDir(migrations, path.Join("migrations", dir))
		if err != nil {
			return nil, fmt.Errorf("live: migrations of %s: %w", dialect, err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sql") {
				seen[e.Name()] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// migrationBody is the SQL of migration name in dialect: its tables, with
// the dialect's auto-increment key in place of {{auto_id}}, then the
// dialect's own statements.
func migrationBody(dialect Dialect, name string) (string, error) {
	var b strings.Builder
	for _, dir := range []string{"tables", string(dialect)} {
		body, err := migrations.ReadFile(path.Join("migrations", dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("live: migration %s: %w", name, err)
		}
		b.WriteString(strings.ReplaceAll(string(body), "{{auto_id}}", autoID[dialect]))
	}
	return b.String(), nil
}

// Effects lists the charges on the gateway's ledger per operation, as
// transaction ids in the order they were made: the verdict's one source of
// effects (SELECT op, id FROM charges ORDER BY id).
func (d *DB) Effects(ctx context.Context) (map[int32][]int64, error) {
	rows, err := d.Query(ctx, "SELECT op, id FROM charges ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("live: count charges: %w", err)
	}
	defer rows.Close()
	out := map[int32][]int64{}
	for rows.Next() {
		var op, id int64
		if err := rows.Scan(&op, &id); err != nil {
			return nil, fmt.Errorf("live: count charges: %w", err)
		}
		out[int32(op)] = append(out[int32(op)], id+firstTxn)
	}
	return out, rows.Err()
}

// postgresSchema creates a fresh schema for one run in the PostgreSQL
// database dsn, named after the owner pid (after sweeping the schemas of
// this machine's runs whose owner is gone), and returns the DSN that uses
// it (search_path) and a function that drops it, retried. Runs sharing one
// database never see each other's rows.
func postgresSchema(ctx context.Context, dsn string, pid int) (string, func(), error) {
	schema, err := schemaName(pid)
	if err != nil {
		return "", nil, err
	}
	admin, err := Open(dsn)
	if err != nil {
		return "", nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, lostAfter+2*time.Second)
	defer cancel()
	if _, err := SweepSchemas(cctx, admin); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("live: %s: %v", redact(dsn), firstLine(err))
	}
	if _, err := admin.ExecContext(cctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("live: create schema in %s: %v", redact(dsn), firstLine(err))
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	drop := func() {
		dropSchema(admin, schema)
		admin.Close()
	}
	return dsn + sep + "search_path=" + schema, drop, nil
}

// dropTimeout bounds dropping a run's schema.
const dropTimeout = 10 * time.Second

// redact hides the password of a URL DSN in messages.
func redact(dsn string) string {
	at := strings.LastIndex(dsn, "@")
	scheme := strings.Index(dsn, "://")
	if at < 0 || scheme < 0 {
		return dsn
	}
	userinfo := dsn[scheme+3 : at]
	if user, _, ok := strings.Cut(userinfo, ":"); ok {
		return dsn[:scheme+3] + user + ":***" + dsn[at:]
	}
	return dsn
}
