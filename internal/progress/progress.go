// Package progress draws progress on a terminal, and nothing where the
// output is not one (piped output stays clean).
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// IsTerminal reports whether w is a terminal: progress lines are drawn
// there and nowhere else, so piped output stays clean.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Bar returns a progress callback that redraws one line on a terminal
// and erases it when done, or nil when w is not a terminal.
func Bar(w io.Writer, what string) func(done, total int) {
	if !IsTerminal(w) {
		return nil
	}
	return bar(w, what)
}

func bar(w io.Writer, what string) func(done, total int) {
	start := time.Now()
	const width = 30
	return func(done, total int) {
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		n := done * width / max(total, 1)
		rate := float64(done) / max(time.Since(start).Seconds(), 1e-9)
		fmt.Fprintf(w, "\r\033[K%s [%s%s] %d/%d runs · %.0f runs/s", what,
			strings.Repeat("█", n), strings.Repeat("·", width-n), done, total, rate)
	}
}
