package tui

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/sim"
)

// timeline is the scrollable list of trace events with a cursor. It holds
// positions only; the events belong to the run view's result.
type timeline struct {
	cursor int // index of the event under the cursor
	offset int // index of the first visible line
}

// move puts the cursor at i, clamped to [0, n), and scrolls so that it
// stays visible among height lines with a small margin.
func (t timeline) move(i, n, height int) timeline {
	if n == 0 {
		return timeline{}
	}
	t.cursor = max(0, min(i, n-1))
	return t.scroll(n, height)
}

// scroll keeps the cursor inside the visible window.
func (t timeline) scroll(n, height int) timeline {
	if height < 1 {
		height = 1
	}
	margin := min(2, (height-1)/2)
	if t.cursor-margin < t.offset {
		t.offset = t.cursor - margin
	}
	if t.cursor+margin >= t.offset+height {
		t.offset = t.cursor + margin - height + 1
	}
	t.offset = max(0, min(t.offset, n-height))
	return t
}

// view renders height lines of the timeline: time, then the event's
// report.Describe line. The cursor line is reversed; drops a what-if
// caused are marked with ✂; an operation's second and later effects are
// red.
func (t timeline) view(r *result, whatIf map[sim.Fault]bool, width, height int) string {
	lines := make([]string, 0, height)
	for i := t.offset; i < len(r.events) && len(lines) < height; i++ {
		e := &r.events[i]
		mark := " "
		if f, ok := r.planFaultOf(i); ok && whatIf[f] {
			mark = "✂"
		}
		text := fmt.Sprintf(" %8s %s %s", report.TimeWords(e.At), mark, r.lines[i])
		if i == t.cursor {
			text = "▸" + text[1:]
			lines = append(lines, styleCursor.Render(pad(text, width)))
			continue
		}
		st := eventStyle(e.Kind)
		if r.nth[i] > 1 {
			st = styleBad // an operation's second effect: the harm
		}
		lines = append(lines, st.Render(fit(text, width)))
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// nextMatching returns the index of the first event after (dir=+1) or
// before (dir=-1) from that satisfies pred, or from itself when none does.
func nextMatching(events []sim.Event, from, dir int, pred func(*sim.Event) bool) int {
	for i := from + dir; i >= 0 && i < len(events); i += dir {
		if pred(&events[i]) {
			return i
		}
	}
	return from
}

// notableIn is what n/N jump between in a trace of topo: faults,
// crashes, restarts and effects.
func notableIn(topo *sim.Topology) func(e *sim.Event) bool {
	return func(e *sim.Event) bool { return notable(topo, e) }
}

// notable reports whether e is a fault, a crash, a restart or an effect.
func notable(topo *sim.Topology, e *sim.Event) bool {
	switch report.EventClass(topo, e.Kind) {
	case sim.ClassDrop, sim.ClassInFlight, sim.ClassStop, sim.ClassStart, sim.ClassEffect:
		return true
	}
	return false
}
