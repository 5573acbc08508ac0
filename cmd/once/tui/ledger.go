package tui

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/sim"
)

// ledgerWidth is the width of the ledger column.
const ledgerWidth = 38

// ledgerView renders the per-operation ledger of out — attempts,
// deliveries, effects, verdict — in at most rows lines after its header,
// scrolled so that the operation under the cursor (focus, 0 for none) is
// visible and marked. Operations whose verdict a what-if changed carry a Δ.
func ledgerView(out *sim.Outcome, changed map[sim.OpID]bool, focus sim.OpID, width, rows int) string {
	var b strings.Builder
	b.WriteString(styleTitle.Render(fit(fmt.Sprintf("  %-6s %4s %4s %4s  %s", "op", "att", "dlv", "eff", "verdict"), width)))
	if out == nil {
		return b.String()
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
		line := fmt.Sprintf("%s%-6s %4d %4d %4d %s ", mark, op.Op, op.Attempts, op.Deliveries, op.Effects, delta)
		if op.Op == focus {
			line = styleTitle.Render(line)
		}
		b.WriteString("\n" + fit(line+verdictStyle(op.Verdict).Render(op.Verdict.String()), width))
	}
	if n > rows {
		b.WriteString("\n" + styleDim.Render(fit(fmt.Sprintf("  … %d operations, showing %d–%d", n, first+1, min(n, first+rows)), width)))
	}
	return b.String()
}
