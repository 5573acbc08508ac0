package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// ledgerWidth is the width of the ledger column; on a wide screen
// (ledgerWideFrom columns) it is ledgerWideWidth and lists each
// operation's effect values (its transaction ids) too.
const (
	ledgerWidth     = 38
	ledgerWideWidth = 54
	ledgerWideFrom  = 120
	idsWidth        = 15
)

func ledgerWidthFor(screen int) int {
	if screen >= ledgerWideFrom {
		return ledgerWideWidth
	}
	return ledgerWidth
}

// effectValues lists each operation's effect values on the observed
// sinks, in trace order.
func (r *result) effectValues() map[sim.OpID][]int64 {
	out := map[sim.OpID][]int64{}
	for i := range r.events {
		if e := &r.events[i]; r.observed(e) {
			out[e.Msg.Op] = append(out[e.Msg.Op], e.Msg.Value)
		}
	}
	return out
}

// idsCell lists effect values, every one after the first in red, cut to
// width cells.
func idsCell(vs []int64, width int) string {
	if len(vs) == 0 {
		return pad("–", width)
	}
	s := ""
	for i, v := range vs {
		part := strconv.FormatInt(v, 10)
		if i > 0 {
			part = "," + styleBad.Render(part)
		}
		if ansi.StringWidth(s+part) > width {
			s += styleBad.Render("…")
			break
		}
		s += part
	}
	return pad(s, width)
}

// ledgerView renders the per-operation ledger of r — attempts,
// deliveries, effects (with their values when wide), verdict — in at most
// rows lines after its header, scrolled so that the operation under the
// cursor (focus, 0 for none) is visible and marked. Operations whose
// verdict a what-if changed carry a Δ.
func ledgerView(r *result, changed map[sim.OpID]bool, focus sim.OpID, width, rows int) string {
	out := r.outcome
	wide := width >= ledgerWideWidth
	var b strings.Builder
	// The count columns are as wide as their headers, 4 at least: a
	// language's abbreviation never shifts the numbers under it.
	att, dlv, eff := lang.T("tui.ledger.att"), lang.T("tui.ledger.dlv"), lang.T("tui.ledger.eff")
	aw, dw, ew := max(4, ansi.StringWidth(att)), max(4, ansi.StringWidth(dlv)), max(4, ansi.StringWidth(eff))
	head := fmt.Sprintf("  %-5s %*s %*s %*s  ", lang.T("tui.ledger.op"), aw, att, dw, dlv, ew, eff)
	if wide {
		head += pad(lang.T("tui.ledger.ids"), idsWidth) + " "
	}
	b.WriteString(styleTitle.Render(fit(head+lang.T("column.verdict"), width)))
	if out == nil {
		return b.String()
	}
	var values map[sim.OpID][]int64
	if wide {
		values = r.effectValues()
	}
	n := len(out.Ops)
	first := 0
	if n > rows && focus > 0 {
		first = max(0, min(int(focus)-1-rows/2, n-rows))
	}
	for i := first; i < n && i < first+rows; i++ {
		op := &out.Ops[i]
		mark := "  "
		if op.Op == focus {
			mark = "▸ "
		}
		delta := " "
		if changed[op.Op] {
			delta = "Δ"
		}
		line := fmt.Sprintf("%s%-5s %*d %*d %*d %s ", mark, op.Op, aw, op.Attempts, dw, op.Deliveries, ew, op.Effects, delta)
		if op.Op == focus {
			line = styleTitle.Render(line)
		}
		if wide {
			line += idsCell(values[op.Op], idsWidth) + " "
		}
		b.WriteString("\n" + fit(line+opCell(op), width))
	}
	if n > rows {
		b.WriteString("\n" + styleDim.Render(fit("  "+lang.Tf("tui.ledger.more", map[string]any{
			"N": n, "From": first + 1, "To": min(n, first+rows)}), width)))
	}
	return b.String()
}
