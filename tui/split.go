package tui

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// splitView shows two semantics side by side on one schedule (v): the
// same seed and the same what-ifs, faults keyed by the identity of what
// they hit, so each column differs only by what its semantics does. Each
// column has its verdict, the outcome in the user's words, a short ledger
// and the events around the cursor's event (found by identity in the
// second column).
func (v runView) splitView(width, height int) string {
	colW := (width - 1) / 2
	right, exact := sameEvent(&v.cur, &v.cmp, v.tl.cursor)
	left := v.splitColumn(&v.cur, v.spec.sem, v.tl.cursor, true, colW, height)
	rightCol := v.splitColumn(&v.cmp, v.cmpSem, right, exact, colW, height)
	l, r := strings.Split(left, "\n"), strings.Split(rightCol, "\n")
	lines := make([]string, height)
	for i := range lines {
		lines[i] = pad(l[i], colW) + styleRule.Render("│") + fit(r[i], width-colW-1)
	}
	return strings.Join(lines, "\n")
}

// splitColumn is one semantics' column, exactly height lines of width
// cells: its cursor is on event cursor, reversed when exact and dim when
// the run has no such event (the nearest in time is shown).
func (v runView) splitColumn(r *result, sem sim.Semantics, cursor int, exact bool, width, height int) string {
	var lines []string
	if r.err != nil || r.outcome == nil {
		return fixHeight([]string{styleBad.Render(fit(fmt.Sprint(r.err), width))}, height)
	}
	o := r.outcome
	title := styleTitle.Render(sem.String()) + " " + sem.Promise().String()
	lines = append(lines, rule(title, width))
	lines = append(lines, v.outcomeLine(o))
	lines = append(lines, promiseLine(o, true))
	for _, inv := range o.Invariants {
		if inv.Violation != "" {
			lines = append(lines, inv.Name+": "+styleBad.Render(lang.T("tui.invariant.violated")))
		}
	}
	values := r.effectValues()
	opRows := min(len(o.Ops), max(1, height/4))
	focus := sim.OpID(0)
	if cursor >= 0 && cursor < len(r.events) {
		focus = r.events[cursor].Msg.Op
	}
	first := 0
	if len(o.Ops) > opRows && focus > 0 {
		first = max(0, min(int(focus)-1-opRows/2, len(o.Ops)-opRows))
	}
	for i := first; i < first+opRows; i++ {
		op := &o.Ops[i]
		mark := "  "
		if op.Op == focus {
			mark = "▸ "
		}
		lines = append(lines, fmt.Sprintf("%s%-6s %s %s", mark, op.Op, idsCell(values[op.Op], 11), opCell(op)))
	}
	if !exact {
		lines = append(lines, styleDim.Render(lang.T("tui.split.no_same_event")))
	}
	rows := max(1, height-len(lines))
	from := max(0, min(cursor-rows/2, len(r.events)-rows))
	for i := from; i < len(r.events) && i < from+rows; i++ {
		e := &r.events[i]
		text := fmt.Sprintf("%8s %s", report.TimeWords(e.At), laneLabel(r.topo, e, r.nth[i]))
		st := eventStyle(e.Kind)
		if r.nth[i] > 1 {
			st = styleBad
		}
		switch {
		case i == cursor && exact:
			lines = append(lines, styleCursor.Render(pad("▸"+text[1:], width)))
		case i == cursor:
			lines = append(lines, styleDim.Render(pad("▹"+text[1:], width)))
		default:
			lines = append(lines, st.Render(fit(text, width)))
		}
	}
	for i := range lines {
		lines[i] = fit(lines[i], width)
	}
	return fixHeight(lines, height)
}
