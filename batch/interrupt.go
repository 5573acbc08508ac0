package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/oncesim/once/internal/progress"
	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/sim"
)

// Session is a batch run from a terminal: a progress line on stderr (on a
// terminal only), and Ctrl-C or SIGTERM stops it between chunks of seeds
// instead of killing the process, so the rows that ran are reported. A
// second signal ends the process as usual.
type Session struct {
	what  string
	w     io.Writer
	bar   Progress
	stop  <-chan struct{}
	drop  context.CancelFunc
	ended bool
	// Stopped is how far the batch got, when a signal stopped it.
	Stopped *Interrupted
}

// Interruptible starts a session for the command named what (matrix,
// sweep), its progress line on w. End it with End.
func Interruptible(w io.Writer, what string) *Session {
	ctx, drop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, drop) // the first signal stops the batch; the next one the process
	return &Session{what: what, w: w, bar: progress.Bar(w, what), stop: ctx.Done(), drop: drop}
}

// Stopping returns a session stopped by closing stop, drawing bar (nil:
// none): what a test drives instead of a signal.
func Stopping(w io.Writer, what string, bar Progress, stop <-chan struct{}) *Session {
	return &Session{what: what, w: w, bar: bar, stop: stop, drop: func() {}}
}

// Run is Run within the session: on a signal it returns the tallies of
// the runs made and an *Interrupted error (the caller reports them, marked
// partial, and exits 3).
func (s *Session) Run(cfgs []*sim.Config, seeds, workers int, opt Options) ([]Tally, error) {
	out, ran := RunSeedsUntil(cfgs, Seeds{Lo: 1, Hi: uint64(seeds)}, workers, s.bar, s.stop, opt)
	if total := len(cfgs) * seeds; ran < total {
		s.Stopped = &Interrupted{Command: s.what, Done: ran, Total: total}
		return out, s.Stopped
	}
	return out, nil
}

// End finishes the progress line — erased when the batch completed, kept
// and ended with a newline when it was stopped — and gives the signals
// back their default. Call it before writing the report.
func (s *Session) End() {
	if s.ended {
		return
	}
	s.ended = true
	if s.Stopped != nil && s.bar != nil {
		fmt.Fprintln(s.w)
	}
	s.drop()
}

// Interrupted is a batch stopped by a signal before every run was made.
type Interrupted struct {
	Command     string
	Done, Total int
}

func (e *Interrupted) Error() string { return e.worded().Error() }

// MessageID, MessageData: the message that words it in the reader's
// language (report/lang, error.batch_interrupted).
func (e *Interrupted) MessageID() string           { return e.worded().ID }
func (e *Interrupted) MessageData() map[string]any { return e.worded().Data }

func (e *Interrupted) worded() *usererr.Error {
	return usererr.New("batch_interrupted", map[string]any{"Command": e.Command, "Done": e.Done, "Total": e.Total},
		fmt.Sprintf("INCOMPLETE: %s interrupted after %d of %d runs; the rows shown hold the runs made (a row not reached is left out)",
			e.Command, e.Done, e.Total))
}

// RunStoppable runs cfgs on seeds 1..seeds in a session of its own
// (Interruptible, then End): on a signal it returns the tallies of the
// runs made and an *Interrupted error.
func RunStoppable(w io.Writer, what string, cfgs []*sim.Config, seeds, workers int, opt Options) ([]Tally, error) {
	s := Interruptible(w, what)
	defer s.End()
	return s.Run(cfgs, seeds, workers, opt)
}
