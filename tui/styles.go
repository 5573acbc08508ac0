package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Styles use the 16 basic colours only, so they read on light and dark
// terminals alike; the program's renderer downsamples them (NO_COLOR keeps
// bold and reverse, which is all the cursor needs).
var (
	styleTitle   = lipgloss.NewStyle().Bold(true)
	styleDim     = lipgloss.NewStyle().Faint(true)
	styleBad     = lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	styleGood    = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleWarn    = lipgloss.NewStyle().Foreground(lipgloss.Color("3"))
	styleAccent  = lipgloss.NewStyle().Foreground(lipgloss.Color("6"))
	styleMagenta = lipgloss.NewStyle().Foreground(lipgloss.Color("5"))
	styleCursor  = lipgloss.NewStyle().Reverse(true)
	styleRule    = lipgloss.NewStyle().Faint(true)
)

// verdictStyle colours a verdict: lost yellow, exactly-once green,
// duplicated red.
func verdictStyle(v sim.Verdict) lipgloss.Style {
	switch v {
	case sim.Lost:
		return styleWarn.Bold(true)
	case sim.ExactlyOnce:
		return styleGood
	case sim.Duplicated:
		return styleBad
	}
	return lipgloss.NewStyle()
}

// statusStyle colours the answer to "did the promise hold?".
func statusStyle(s sim.Status) lipgloss.Style {
	switch s {
	case sim.Held:
		return styleGood
	case sim.Violated:
		return styleBad
	}
	return styleWarn
}

// eventStyle colours a timeline line or a lane mark by what happened.
func eventStyle(k sim.EventKind) lipgloss.Style {
	switch k.Class() {
	case sim.ClassDrop, sim.ClassStop:
		return styleBad
	case sim.ClassEffect:
		return styleWarn.Bold(true)
	case sim.ClassInFlight:
		return styleMagenta
	case sim.ClassStart:
		return styleAccent
	case sim.ClassOutcome:
		return styleGood
	case sim.ClassStore, sim.ClassTimer:
		return styleDim
	}
	return lipgloss.NewStyle()
}

// fit cuts s (which may hold ANSI styles) to width cells.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// pad fits s to exactly width cells, padding with spaces.
func pad(s string, width int) string {
	s = fit(s, width)
	if w := ansi.StringWidth(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// padLines pads every line of s to width cells.
func padLines(s string, width int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = pad(l, width)
	}
	return strings.Join(lines, "\n")
}

// rule is a faint horizontal line with a title: "── timeline ─────".
func rule(title string, width int) string {
	head := "── " + title + " "
	n := width - ansi.StringWidth(head)
	if n < 0 {
		return fit(styleTitle.Render(head), width)
	}
	return styleRule.Render("── ") + styleTitle.Render(title) + " " + styleRule.Render(strings.Repeat("─", n))
}

// wrap breaks plain text into lines of at most width cells.
func wrap(text string, width int) []string {
	if width < 10 {
		width = 10
	}
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		out = append(out, fill(strings.Fields(para), " ", width)...)
	}
	return out
}

// fill lays items out in lines of at most width cells, as many on a line
// as fit, joined by sep; an item wider than width has a line of its own.
// No items, no lines.
func fill(items []string, sep string, width int) []string {
	var lines []string
	line := ""
	for _, item := range items {
		switch {
		case line == "":
			line = item
		case ansi.StringWidth(line)+ansi.StringWidth(sep)+ansi.StringWidth(item) <= width:
			line += sep + item
		default:
			lines = append(lines, line)
			line = item
		}
	}
	if len(items) > 0 {
		lines = append(lines, line)
	}
	return lines
}

// opCell is one operation's verdict in a ledger, or its outcome where the
// verdict alone would mislead: a designed refusal is not "lost", nor is
// an operation an unfinished run never started (sim.OpOutcome).
func opCell(op *sim.OpResult) string {
	switch k := op.Class(); k {
	case sim.OpRefused:
		return styleGood.Render(report.OpOutcomeWord(k, scenarios.OutcomeWords{}))
	case sim.OpNotStarted, sim.OpPending:
		return styleDim.Render(report.OpOutcomeWord(k, scenarios.OutcomeWords{}))
	case sim.OpPartial, sim.OpNeverCompletes:
		return styleWarn.Bold(true).Render(report.OpOutcomeWord(k, scenarios.OutcomeWords{}))
	}
	return verdictStyle(op.Verdict).Render(verdictWord(op.Verdict))
}
