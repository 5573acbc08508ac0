package live

import (
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/sim"
)

// newPlainTable is a bordered table without colours: the suite's table,
// read in CI logs as often as in a terminal.
func newPlainTable(headers ...string) *table.Table {
	cell := lipgloss.NewStyle().Padding(0, 1)
	return table.New().Border(lipgloss.NormalBorder()).Headers(headers...).
		StyleFunc(func(int, int) lipgloss.Style { return cell })
}

// effectIDs are each operation's charge ids, read from a run's trace.
func effectIDs(cfg *sim.Config, trace *sim.Trace) map[sim.OpID][]int64 {
	return report.EffectValues(cfg.Observe, trace.Events)
}
