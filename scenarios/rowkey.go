package scenarios

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/sim"
)

// Changes says how an expectation row's faults and operation count differ
// from the scenario's defaults ("crash=0.2", "loss=0 ops=20"), which its
// Label (semantics and parameters) does not show.
func (e *Expectation) Changes(sc *Scenario) string {
	var parts []string
	if e.Faults != nil {
		for _, name := range sim.FaultSettingNames() {
			if row, base := e.Faults.Format(name), sc.Faults.Format(name); row != base {
				parts = append(parts, name+"="+row)
			}
		}
	}
	if e.Ops > 0 && e.Ops != sc.Ops {
		parts = append(parts, fmt.Sprintf("ops=%d", e.Ops))
	}
	return strings.Join(parts, " ")
}

// RowKey names an expectation row the way the matrix shows it: its Label,
// then " · " and its Changes when it has any ("idem store=memory ·
// crash=0.2"). A translation file keys the row's note by it
// ([note] "idem store=memory · crash=0.2" = "…"); within a scenario the
// rows with a note have distinct keys (a test checks it).
func (e *Expectation) RowKey(sc *Scenario) string {
	if c := e.Changes(sc); c != "" {
		return e.Label() + " · " + c
	}
	return e.Label()
}
