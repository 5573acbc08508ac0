package explore

import (
	"fmt"
	"io"
	"time"

	"github.com/oncesim/once/sim/search"
)

// ProgressLine redraws one line of progress on a terminal while a search
// runs, and ends it — cleared, the cursor back at column 0 — before
// anything else is printed, also when the search was interrupted.
type ProgressLine struct {
	w     io.Writer // nil: no progress line
	start time.Time
	drawn bool
}

// NewProgressLine returns a progress line drawn on w; a nil w draws none.
func NewProgressLine(w io.Writer) *ProgressLine {
	return &ProgressLine{w: w, start: time.Now()}
}

// Draw redraws the line with the search's statistics so far.
func (p *ProgressLine) Draw(s search.Stats) {
	if p.w == nil {
		return
	}
	rate := float64(s.States) / max(time.Since(p.start).Seconds(), 1e-9)
	fmt.Fprintf(p.w, "\r\033[Kexploring: %d states · %d schedules · depth %d · %s held · %.0f states/s",
		s.States, s.Schedules, s.MaxDepth, HumanBytes(s.Memory), rate)
	p.drawn = true
}

// End clears the line if one was drawn.
func (p *ProgressLine) End() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
