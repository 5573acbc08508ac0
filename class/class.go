package class

import (
	"crypto/hmac"
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

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/lesson"
)

// DefaultMaxStudents is how many students a class admits unless told.
const DefaultMaxStudents = 200

// KeyFile is the file in the class's directory that keeps a class key
// the server drew itself (no --class-key nor ONCE_CLASS_KEY): `once
// lesson grade` needs it for the exported result files.
const KeyFile = "class.key"

// Options are what `once class` is given.
type Options struct {
	Dir         string // the class's directory: its state file (and its key file)
	Listen      string // the address to serve on; loopback unless told
	Code        string // the join code students type; "random" draws one; required off loopback; asked again at each start
	MaxStudents int    // how many students may join, at least 1 (the command's default: DefaultMaxStudents)
	ClassKey    string // --class-key (else ONCE_CLASS_KEY, else the key file)
	Steps       string // the steps to teach (numbers or ids, comma-separated); all when empty
}

// A Class is one class's server: its course, its state and the phase of
// the step it is at. It is an http.Handler (see Handler).
type Class struct {
	course  *lesson.Course
	steps   []int // the course's steps taught, in order
	st      *store
	key     string
	teacher string // the instructor's token
	code    string // the join code ("" on loopback without one)
	max     int
	version string
	dir     string // the class's directory
	keyFile string // the key file, when the key is kept there
	addr    string // HOST:PORT students reach (set when it listens)

	// mu guards the step and the phase: answers hold it for reading
	// until they are committed, a move holds it for writing, so a reveal
	// waits for the answers in flight and none is taken after it.
	mu    sync.RWMutex
	pos   int // index into steps
	phase string

	views  viewCache
	grades gradeCache
}

// New opens (or creates) the class in o.Dir: the course's steps, the
// class key, the instructor's token and join code drawn on the first
// start and read back on every restart, with the students, their
// answers and the step and phase the class was at. Refusals are
// *lesson.InputError.
func New(o Options) (*Class, error) {
	c, err := lesson.Load()
	if err != nil {
		return nil, err
	}
	if o.MaxStudents < 1 { // 0 too: --max-students 0 was taken as the default while -1 was refused
		return nil, refuse("class_max_students", map[string]any{"N": o.MaxStudents}, fmt.Sprintf("--max-students %d: want at least 1", o.MaxStudents))
	}
	steps, err := c.Select("", o.Steps)
	if err != nil {
		return nil, &lesson.InputError{Err: err}
	}
	if o.Dir == "" {
		o.Dir = "once-class"
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, &lesson.InputError{Err: fmt.Errorf("--dir %w", err)}
	}
	key, keyFile, err := classKey(o)
	if err != nil {
		return nil, err
	}
	version, err := lesson.Version()
	if err != nil {
		return nil, err
	}
	st, err := openStore(o.Dir)
	if err != nil {
		return nil, &lesson.InputError{Err: fmt.Errorf("--dir %s: %w", o.Dir, err)}
	}
	cl := &Class{course: c, steps: steps, st: st, key: key, max: o.MaxStudents, version: version, dir: o.Dir, keyFile: keyFile,
		addr: DefaultListen}
	if err := cl.restore(o); err != nil {
		st.close()
		return nil, err
	}
	return cl, nil
}

// refuse is a one-line refusal, worded in the user's language.
func refuse(id string, data map[string]any, english string) error {
	return &lesson.InputError{Err: usererr.New(id, data, english)}
}

// classKey is the class key: --class-key or ONCE_CLASS_KEY, else the one
// kept in the key file, else a new one drawn and kept there (mode 0600);
// with the key file's path when it comes from there.
func classKey(o Options) (key, file string, err error) {
	k, err := lesson.ClassKey(o.ClassKey)
	if err != nil || k != "" {
		return k, "", err
	}
	file = filepath.Join(o.Dir, KeyFile)
	data, err := os.ReadFile(file)
	switch {
	case err == nil:
		k = strings.TrimSpace(string(data))
		if len(k) < lesson.MinClassKey {
			return "", "", &lesson.InputError{File: file, Err: fmt.Errorf("a key of %d bytes: want at least %d", len(k), lesson.MinClassKey)}
		}
		return k, file, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", "", &lesson.InputError{File: file, Err: err}
	}
	k = randomToken(32)
	if err := os.WriteFile(file, []byte(k+"\n"), 0o600); err != nil {
		return "", "", &lesson.InputError{File: file, Err: err}
	}
	return k, file, nil
}

// keyPrint names a class key without giving it away: an HMAC of a fixed
// text under it. A restart with another key would give every student
// other seeds, so it is refused.
func keyPrint(key string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("once.class/key"))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// restore reads the class's state back, or writes it on the first start.
func (cl *Class) restore(o Options) error {
	stepIDs := make([]string, len(cl.steps))
	for i, s := range cl.steps {
		stepIDs[i] = cl.course.Steps[s].ID
	}
	checks := []struct{ k, want, flag, id, english string }{
		{"key", keyPrint(cl.key), "--class-key", "class_other_key", "the class in %s was started with another class key (every student would get other runs): give the same key, or another --dir"},
		{"course", cl.version, "", "class_other_course", "the class in %s was started on another course version (%s): finish it with the once that started it, or start another --dir"},
		{"steps", strings.Join(stepIDs, ","), "--steps", "class_other_steps", "the class in %s teaches other steps (%s): restart it without --steps, or start another --dir"},
	}
	for _, c := range checks {
		have, err := cl.st.meta(c.k)
		if err != nil {
			return err
		}
		if c.k == "steps" && have != "" && o.Steps == "" {
			ids := strings.Split(have, ",")
			cl.steps = cl.steps[:0]
			for _, id := range ids {
				i, err := cl.course.StepIndex(id)
				if err != nil {
					return &lesson.InputError{Err: fmt.Errorf("--dir %s: step %s: %w", o.Dir, id, err)}
				}
				cl.steps = append(cl.steps, i)
			}
			continue
		}
		if have != "" && have != c.want {
			english := fmt.Sprintf(c.english, o.Dir, have)
			if c.k == "key" {
				english = fmt.Sprintf(c.english, o.Dir)
			}
			return refuse(c.id, map[string]any{"Dir": o.Dir, "Have": have}, english)
		}
		if have == "" {
			if err := cl.st.setMeta(c.k, c.want); err != nil {
				return err
			}
		}
	}
	var err error
	if cl.teacher, err = cl.st.metaOr("teacher", func() string { return randomToken(20) }); err != nil {
		return err
	}
	switch code := strings.TrimSpace(o.Code); {
	case code == "random":
		cl.code = randomToken(6)
	case len(code) > 32 || strings.ContainsAny(code, " /?#&%+"):
		return refuse("class_code", map[string]any{"Code": lesson.Escape(code)}, fmt.Sprintf("--code %s: want a short word of letters and digits (or `random`)", lesson.Escape(code)))
	default:
		cl.code = code
	}
	pos, err := cl.st.meta("pos")
	if err != nil {
		return err
	}
	cl.pos, _ = strconv.Atoi(pos)
	cl.pos = min(max(cl.pos, 0), len(cl.steps)-1)
	if cl.phase, err = cl.st.meta("phase"); err != nil {
		return err
	}
	if !slices.Contains([]string{Predict, Evidence, Revealed}, cl.phase) {
		cl.phase = Predict
	}
	return nil
}

// Close closes the class's state file.
func (cl *Class) Close() error { return cl.st.close() }

// TeacherToken is the instructor's token: the dashboard's URL carries it.
func (cl *Class) TeacherToken() string { return cl.teacher }

// JoinCode is the code students type to join ("" when none is asked).
func (cl *Class) JoinCode() string { return cl.code }

// current is the course index of the step the class is at, and its phase.
func (cl *Class) current() (int, string) {
	cl.mu.RLock()
	defer cl.mu.RUnlock()
	return cl.steps[cl.pos], cl.phase
}

// Advance moves the class on from step position pos in phase from (what
// the instructor's page showed, so that a double click does not skip a
// phase): predictions → evidence → reveal → the next step's predictions.
// It says whether the class moved.
func (cl *Class) Advance(pos int, from string) (bool, error) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if pos != cl.pos || from != cl.phase {
		return false, nil
	}
	next, nextPos := "", cl.pos
	switch cl.phase {
	case Predict:
		next = Evidence
	case Evidence:
		next = Revealed
		if err := cl.st.reveal(cl.course.Steps[cl.steps[cl.pos]].ID); err != nil {
			return false, err
		}
	case Revealed:
		if cl.pos+1 >= len(cl.steps) {
			return false, nil
		}
		next, nextPos = Predict, cl.pos+1
	}
	if err := cl.st.setMeta("pos", strconv.Itoa(nextPos), "phase", next); err != nil {
		return false, err
	}
	cl.pos, cl.phase = nextPos, next
	return true, nil
}

// open says whether question q (its view) of the current step takes
// answers in phase: mechanism questions while predicting, evidence
// questions once the run is shown; none after the reveal.
func open(mechanism bool, phase string) bool {
	if mechanism {
		return phase == Predict
	}
	return phase == Evidence
}

// Errors of an answer, each a one-line refusal the student's page shows.
var (
	errClosed   = errors.New("closed")
	errAnswered = errors.New("answered")
	errBadInput = errors.New("bad answer")
)

// Answer records a student's letter for question n (1-based) of step
// (its id): refused unless it is the current step, the question is open
// in the current phase and the letter is one of its choices; the first
// answer counts (errAnswered after it). The phase is held while the
// answer is written, so none slips in after a reveal.
func (cl *Class) Answer(name, step string, n int, letter string) error {
	i, _ := cl.current()
	if cl.course.Steps[i].ID != step {
		return errClosed
	}
	v, err := cl.views.get(cl, name, i) // outside the lock: the first build runs the student's step
	if err != nil {
		return err
	}
	if n < 1 || n > len(v.view.Questions) {
		return errBadInput
	}
	q := v.view.Questions[n-1]
	if len(letter) != 1 || letter[0] < 'a' || int(letter[0]-'a') >= len(q.Choices) {
		return errBadInput
	}
	cl.mu.RLock()
	defer cl.mu.RUnlock()
	if cl.steps[cl.pos] != i || !open(q.Mechanism, cl.phase) {
		return errClosed
	}
	ok, err := cl.st.answer(name, step, n, letter)
	if err != nil {
		return err
	}
	if !ok {
		return errAnswered
	}
	return nil
}
