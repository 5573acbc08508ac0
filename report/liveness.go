package report

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// LivenessDoc is a run's liveness verdict in JSON: when its faults
// stopped, the bound it had after that, whether it settled (finished,
// every operation with its final outcome) and, if not, which operations
// were still without one.
type LivenessDoc struct {
	FaultsUntilMs int64        `json:"faults_until_ms"`
	SettleMs      int64        `json:"settle_ms,omitempty"` // absent: the run's time budget
	Settled       bool         `json:"settled"`
	EndTimeMs     int64        `json:"end_time_ms"`
	Stuck         []StuckOpDoc `json:"stuck,omitempty"`
	// Unmet are the liveness invariants the finished run violates: what
	// it waits for forever (a transaction no marker will end).
	Unmet []InvariantDoc `json:"unmet,omitempty"`
}

// StuckOpDoc is an operation without a final outcome when the liveness
// phase ended: "pending", "never-completes" or "not-started".
type StuckOpDoc struct {
	Op      int32  `json:"op"`
	Outcome string `json:"outcome"`
}

func livenessDoc(l *sim.Liveness) *LivenessDoc {
	if l == nil {
		return nil
	}
	d := &LivenessDoc{FaultsUntilMs: int64(l.FaultsUntil), SettleMs: int64(l.Settle), Settled: l.Settled, EndTimeMs: int64(l.EndTime)}
	for i, op := range l.Stuck {
		d.Stuck = append(d.Stuck, StuckOpDoc{Op: int32(op), Outcome: l.Outcomes[i].String()})
	}
	for _, inv := range l.Unmet {
		d.Unmet = append(d.Unmet, InvariantDoc{Name: inv.Name, Violation: inv.Violation, Detail: inv.Detail})
	}
	return d
}

// LivenessLine is the liveness verdict in one line of the reader's
// language: settled (by when, within which bound), or not, naming the
// operations still without a final outcome.
func LivenessLine(d *LivenessDoc) string {
	data := map[string]any{"Until": sim.Time(d.FaultsUntilMs), "End": sim.Time(d.EndTimeMs), "Settle": sim.Time(d.SettleMs)}
	bound := ""
	if d.SettleMs > 0 {
		bound = "_bound"
	}
	switch {
	case len(d.Unmet) > 0:
		parts := make([]string, len(d.Unmet))
		for i, u := range d.Unmet {
			parts[i] = u.Name + ": " + lang.Violation(u.Detail)
		}
		data["Unmet"] = strings.Join(parts, "; ")
		return lang.Tf("liveness.unmet", data)
	case d.Settled && d.EndTimeMs <= d.FaultsUntilMs:
		return lang.Tf("liveness.settled_early", data)
	case d.Settled:
		return lang.Tf("liveness.settled"+bound, data)
	case len(d.Stuck) == 0:
		return lang.Tf("liveness.cut", data)
	}
	parts := make([]string, len(d.Stuck))
	for i, s := range d.Stuck {
		parts[i] = fmt.Sprintf("op-%d (%s)", s.Op, lang.Word("liveness.outcome", s.Outcome))
	}
	data["Stuck"] = strings.Join(parts, ", ")
	return lang.Tf("liveness.unsettled", data)
}
