package class

import (
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // the class's state file
)

// StateFile is the name of the SQLite file a class keeps beside itself,
// in its directory: students, answers, the step and phase, the tokens.
const StateFile = "class.db"

// The phases of a step, in order: the mechanism questions are open
// (Predict), then the run is shown and the evidence questions are open
// (Evidence), then the right answers are shown and nothing more is
// accepted (Revealed).
const (
	Predict  = "predict"
	Evidence = "evidence"
	Revealed = "revealed"
)

const schema = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students (
	name     TEXT PRIMARY KEY,
	session  TEXT NOT NULL UNIQUE,
	seq      INTEGER NOT NULL,
	released INTEGER NOT NULL DEFAULT 0 -- the instructor let the name in again: the next join takes it
);
CREATE TABLE IF NOT EXISTS answers (
	name   TEXT NOT NULL,
	step   TEXT NOT NULL,
	n      INTEGER NOT NULL,
	letter TEXT NOT NULL,
	PRIMARY KEY (name, step, n)
);
CREATE TABLE IF NOT EXISTS revealed (step TEXT PRIMARY KEY, seq INTEGER NOT NULL);
`

// store is a class's state in its SQLite file. Every write is committed
// before the server answers (WAL, synchronous FULL): a crash of the
// instructor's laptop loses no answer it acknowledged. Answers go
// through one writer that commits them in groups (writeAnswers).
type store struct {
	db      *sql.DB
	answers chan answerWrite // to writeAnswers
	written chan struct{}    // closed when writeAnswers is done
	closing sync.Once
	closed  error
}

// openStore opens (creating it if needed) the state file in dir.
func openStore(dir string) (*store, error) {
	dsn := "file:" + filepath.ToSlash(filepath.Join(dir, StateFile)) +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("class: %w", err)
	}
	db.SetMaxOpenConns(1) // one writer: answers are serialised, never lost to SQLITE_BUSY
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("class: %s: %w", filepath.Join(dir, StateFile), err)
	}
	s := &store{db: db, answers: make(chan answerWrite, maxBatch), written: make(chan struct{})}
	go s.writeAnswers()
	return s, nil
}

// close stops the writer, once every answer sent is committed, and
// closes the file.
func (s *store) close() error {
	s.closing.Do(func() {
		close(s.answers)
		<-s.written
		s.closed = s.db.Close()
	})
	return s.closed
}

// meta reads a value of the class ("" when unset).
func (s *store) meta(k string) (string, error) {
	var v string
	err := s.db.QueryRow(`SELECT v FROM meta WHERE k = ?`, k).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("class: state %s: %w", k, err)
	}
	return v, nil
}

// setMeta writes a value of the class.
func (s *store) setMeta(kv ...string) error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("class: state: %w", err)
	}
	defer tx.Rollback()
	for i := 0; i+1 < len(kv); i += 2 {
		if _, err := tx.Exec(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`, kv[i], kv[i+1]); err != nil {
			return fmt.Errorf("class: state %s: %w", kv[i], err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("class: state: %w", err)
	}
	return nil
}

// metaOr reads a value, writing def first when it is unset: the first
// start of a class draws its tokens, every restart reads them back.
func (s *store) metaOr(k string, def func() string) (string, error) {
	v, err := s.meta(k)
	if err != nil || v != "" {
		return v, err
	}
	v = def()
	return v, s.setMeta(k, v)
}

// A student is one name of the class and the session its browser holds.
type student struct {
	Name, Session string
	Seq           int
}

// errNameTaken and errFull are the refusals of a join.
var (
	errNameTaken = errors.New("name taken")
	errFull      = errors.New("class full")
)

// join adds a student unless the name is taken or the class holds max
// students already; the check and the insert are one transaction. A name
// the instructor released (release) is taken over: the student's browser
// was lost, their answers stay theirs.
func (s *store) join(name, session string, max int) error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("class: join: %w", err)
	}
	defer tx.Rollback()
	var n int
	var taken, released bool
	if err := tx.QueryRow(`SELECT COUNT(*), COALESCE(SUM(name = ?), 0) > 0, COALESCE(SUM(name = ? AND released = 1), 0) > 0 FROM students`, name, name).Scan(&n, &taken, &released); err != nil {
		return fmt.Errorf("class: join: %w", err)
	}
	switch {
	case released:
		_, err = tx.Exec(`UPDATE students SET session = ?, released = 0 WHERE name = ?`, session, name)
	case taken:
		return errNameTaken
	case n >= max:
		return errFull
	default:
		_, err = tx.Exec(`INSERT INTO students (name, session, seq) VALUES (?, ?, ?)`, name, session, n+1)
	}
	if err != nil {
		return fmt.Errorf("class: join: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("class: join: %w", err)
	}
	return nil
}

// release lets a student's name in again: the browser that holds it now
// loses it, and the next join with the name takes it over, with its
// answers (a phone that died, a browser whose cookies were cleared).
func (s *store) release(name string) error {
	if _, err := s.db.Exec(`UPDATE students SET session = ?, released = 1 WHERE name = ?`, "released:"+randomToken(26), name); err != nil {
		return fmt.Errorf("class: release: %w", err)
	}
	return nil
}

// bySession is the student whose browser holds session, nil when none.
func (s *store) bySession(session string) (*student, error) {
	if session == "" {
		return nil, nil
	}
	st := &student{}
	err := s.db.QueryRow(`SELECT name, session, seq FROM students WHERE session = ?`, session).Scan(&st.Name, &st.Session, &st.Seq)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("class: session: %w", err)
	}
	return st, nil
}

// students are the class's students in the order they joined.
func (s *store) students() ([]student, error) {
	rows, err := s.db.Query(`SELECT name, session, seq FROM students ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("class: roster: %w", err)
	}
	defer rows.Close()
	var out []student
	for rows.Next() {
		var st student
		if err := rows.Scan(&st.Name, &st.Session, &st.Seq); err != nil {
			return nil, fmt.Errorf("class: roster: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// An answerWrite is one answer waiting for the writer's next commit.
type answerWrite struct {
	name, step string
	n          int
	letter     string
	done       chan answerDone
}

type answerDone struct {
	recorded bool
	err      error
}

// maxBatch bounds how many answers one commit holds.
const maxBatch = 512

// writeAnswers is the class's one writer of answers: it commits every
// answer waiting in one transaction (group commit), then tells each
// whether it was recorded. A room answering at once costs a few syncs of
// the file, not one per student; no answer is acknowledged before its
// commit.
func (s *store) writeAnswers() {
	defer close(s.written)
	for first := range s.answers {
		batch := []answerWrite{first}
	drain:
		for len(batch) < maxBatch {
			select {
			case a, ok := <-s.answers:
				if !ok {
					break drain
				}
				batch = append(batch, a)
			default:
				break drain
			}
		}
		done := make([]answerDone, len(batch))
		err := func() error {
			tx, err := s.db.Begin()
			if err != nil {
				return err
			}
			defer tx.Rollback()
			for i, a := range batch {
				r, err := tx.Exec(`INSERT INTO answers (name, step, n, letter) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, a.name, a.step, a.n, a.letter)
				if err != nil {
					return err
				}
				k, err := r.RowsAffected()
				if err != nil {
					return err
				}
				done[i].recorded = k == 1
			}
			return tx.Commit()
		}()
		for i, a := range batch {
			if err != nil {
				done[i] = answerDone{err: fmt.Errorf("class: answer: %w", err)}
			}
			a.done <- done[i]
		}
	}
}

// answer records a student's letter for question n of step, unless one is
// recorded already: the first answer counts. It says whether this one
// was recorded, once it is committed.
func (s *store) answer(name, step string, n int, letter string) (bool, error) {
	done := make(chan answerDone, 1)
	s.answers <- answerWrite{name: name, step: step, n: n, letter: letter, done: done}
	d := <-done
	return d.recorded, d.err
}

// answersOf are the letters a student gave in a step, by question number.
func (s *store) answersOf(name, step string) (map[int]string, error) {
	rows, err := s.db.Query(`SELECT n, letter FROM answers WHERE name = ? AND step = ?`, name, step)
	if err != nil {
		return nil, fmt.Errorf("class: answers: %w", err)
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var n int
		var l string
		if err := rows.Scan(&n, &l); err != nil {
			return nil, fmt.Errorf("class: answers: %w", err)
		}
		out[n] = l
	}
	return out, rows.Err()
}

// stepAnswers are every letter given in a step: by student, by question.
func (s *store) stepAnswers(step string) (map[string]map[int]string, error) {
	rows, err := s.db.Query(`SELECT name, n, letter FROM answers WHERE step = ?`, step)
	if err != nil {
		return nil, fmt.Errorf("class: answers: %w", err)
	}
	defer rows.Close()
	out := map[string]map[int]string{}
	for rows.Next() {
		var name, l string
		var n int
		if err := rows.Scan(&name, &n, &l); err != nil {
			return nil, fmt.Errorf("class: answers: %w", err)
		}
		if out[name] == nil {
			out[name] = map[int]string{}
		}
		out[name][n] = l
	}
	return out, rows.Err()
}

// reveal marks step revealed (once).
func (s *store) reveal(step string) error {
	_, err := s.db.Exec(`INSERT INTO revealed (step, seq) VALUES (?, (SELECT COUNT(*) FROM revealed) + 1) ON CONFLICT DO NOTHING`, step)
	if err != nil {
		return fmt.Errorf("class: reveal: %w", err)
	}
	return nil
}

// revealedSteps are the steps revealed, in the order they were.
func (s *store) revealedSteps() ([]string, error) {
	rows, err := s.db.Query(`SELECT step FROM revealed ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("class: revealed: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var st string
		if err := rows.Scan(&st); err != nil {
			return nil, fmt.Errorf("class: revealed: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// tokenAlphabet spells the join code and the secrets: lower-case letters
// and digits that are not misread aloud (no i, l, o, u).
const tokenAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// randomToken is n characters of tokenAlphabet from crypto/rand.
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("class: crypto/rand: " + err.Error()) // never fails on Linux, and a class cannot run without secrets
	}
	var out strings.Builder
	for _, c := range b {
		out.WriteByte(tokenAlphabet[int(c)%len(tokenAlphabet)])
	}
	return out.String()
}
