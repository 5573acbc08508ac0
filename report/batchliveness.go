package report

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// BatchLiveness is the liveness verdict of a matrix row or a sweep point
// over all its seeds (`--faults-until`): every run's faults stopped at
// FaultsUntilMs, and each had to settle — finish, every operation with
// its final outcome — within SettleMs after that (0: its time budget).
// Settled is true when every run did; Replay reproduces the first that
// did not.
type BatchLiveness struct {
	FaultsUntilMs int64      `json:"faults_until_ms"`
	SettleMs      int64      `json:"settle_ms,omitempty"` // absent: the run's time budget
	Settled       bool       `json:"settled"`
	RunsUnsettled int        `json:"runs_unsettled"`
	UnsettledRate float64    `json:"unsettled_rate"`
	UnsettledCI95 [2]float64 `json:"unsettled_ci95"`
	Replay        string     `json:"replay,omitempty"`
	// SwarmProfile is the replayed seed's fault profile in a swarm.
	SwarmProfile string `json:"swarm_profile,omitempty"`
}

// NewBatchLiveness is the verdict of runs runs, unsettled of which did
// not settle, in a liveness phase from until with the bound settle; nil
// when there was no liveness phase (until is 0).
func NewBatchLiveness(until, settle sim.Time, runs, unsettled int) *BatchLiveness {
	if until == 0 {
		return nil
	}
	l := &BatchLiveness{FaultsUntilMs: int64(until), SettleMs: int64(settle), Settled: unsettled == 0, RunsUnsettled: unsettled}
	l.UnsettledRate, l.UnsettledCI95 = rate(unsettled, runs)
	return l
}

// livenessEntry is a matrix row or a sweep point as its liveness lines
// name it: its name, its runs and its verdict (nil: none).
type livenessEntry struct {
	name string
	runs int
	l    *BatchLiveness
}

// livenessPhase is the phase the first judged entry ran, nil when none
// had one: every row of a command has the same (the command line gives
// it).
func livenessPhase(es []livenessEntry) *BatchLiveness {
	for _, e := range es {
		if e.l != nil {
			return e.l
		}
	}
	return nil
}

// livenessPhaseLine says what the liveness phase asks of every run.
func livenessPhaseLine(l lang.Lang, p *BatchLiveness) string {
	data := map[string]any{"Until": sim.Time(p.FaultsUntilMs), "Settle": sim.Time(p.SettleMs)}
	if p.SettleMs > 0 {
		return l.Tf("batch_liveness.phase_bound", data)
	}
	return l.Tf("batch_liveness.phase", data)
}

// unsettledText is an entry's share of runs that did not settle, for a
// table column ("–" where there was no liveness phase).
func unsettledText(l *BatchLiveness, withCI bool) string {
	switch {
	case l == nil:
		return "–"
	case withCI:
		return pct(l.UnsettledRate, l.UnsettledCI95)
	}
	return pctSign(l.UnsettledRate)
}

// livenessLines is the liveness verdict below a matrix's or a sweep's
// table: that every run of every entry settled, or the entries whose
// runs did not, each with the command that replays the first of them.
// points says the entries are a sweep's points, not a matrix's rows.
func livenessLines(l lang.Lang, es []livenessEntry, points bool, bullet string, md bool) string {
	if livenessPhase(es) == nil {
		return ""
	}
	judged, failed := 0, 0
	for _, e := range es {
		if e.l != nil {
			judged++
			if !e.l.Settled {
				failed++
			}
		}
	}
	key := "batch_liveness.rows_"
	if points {
		key = "batch_liveness.points_"
	}
	var b strings.Builder
	if failed == 0 {
		line := l.N(key+"settled", judged)
		switch {
		case md:
			fmt.Fprintf(&b, "\n**%s**\n", line)
		default:
			fmt.Fprintf(&b, "\n%s\n", styleGood.Render(line))
		}
		return b.String()
	}
	heading := l.Nf(key+"unsettled", judged, map[string]any{"N": failed})
	if md {
		fmt.Fprintf(&b, "\n**%s**\n\n", heading)
	} else {
		fmt.Fprintf(&b, "\n%s\n", styleBad.Render(heading))
	}
	for _, e := range es {
		v := e.l
		if v == nil || v.Settled {
			continue
		}
		line := l.Nf("batch_liveness.line", e.runs, map[string]any{"Row": e.name, "Unsettled": v.RunsUnsettled})
		if v.Replay != "" {
			line += l.Tf("matrix.line_replay", map[string]any{"Replay": v.Replay})
			if v.SwarmProfile != "" {
				line += l.Tf("matrix.line_profile", map[string]any{"Profile": v.SwarmProfile})
			}
		}
		if md {
			line = mdCell(line)
		}
		fmt.Fprintf(&b, "%s%s\n", bullet, line)
	}
	return b.String()
}
