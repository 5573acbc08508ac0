package brokers

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// RowRun is where a row of the agreement record comes from: rows of
// different runs stand side by side in the record (make broker-agreement
// BROKER=… measures one broker's rows and keeps the others), and the
// report says of each which run measured it.
type RowRun struct {
	// Date is when the row's run began, UTC ("2006-01-02 15:04 UTC").
	Date string `json:"date"`
	// Commit is the code measured: HEAD's short hash when the run began,
	// with "+changes" when the worktree differed from it.
	Commit string `json:"commit"`
	Seeds  int    `json:"seeds"`
	// Load is the 1-minute load average at the row's start and end
	// ("0.93–1.85"), on a machine of Cores cores; empty when unknown.
	Load  string `json:"load,omitempty"`
	Cores int    `json:"cores,omitempty"`
	// Recorded marks provenance taken from git log for a row measured
	// before the record kept it: Date and Commit are those of the commit
	// that recorded the row; its wall time and load are unknown.
	Recorded bool `json:"recorded,omitempty"`
}

// String is the row's provenance as the report's table shows it.
func (r *RowRun) String(seconds int) string {
	if r == nil {
		return "unknown"
	}
	if r.Recorded && seconds > 0 {
		return fmt.Sprintf("recorded %s by %s, %d seeds, %d s (load not recorded)", r.Date, r.Commit, r.Seeds, seconds)
	}
	if r.Recorded {
		return fmt.Sprintf("recorded %s by %s, %d seeds (wall time and load not recorded)", r.Date, r.Commit, r.Seeds)
	}
	s := fmt.Sprintf("%s, %s, %d seeds, %d s", r.Date, r.Commit, r.Seeds, seconds)
	if r.Load != "" {
		s += fmt.Sprintf(", load %s on %d cores", r.Load, r.Cores)
	}
	return s
}

// loadAverage is the 1-minute load average (Linux's /proc/loadavg), ""
// where there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// utcMinute is t as the record writes dates.
func utcMinute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// SelectCases are the cases of a run: those whose row name (scenario,
// semantics, --set) contains only, on broker (all brokers when empty).
func SelectCases(cases []AgreementCase, only string, broker Kind) []AgreementCase {
	var out []AgreementCase
	for _, c := range cases {
		if strings.Contains(c.String(), only) && (broker == "" || c.Broker == broker) {
			out = append(out, c)
		}
	}
	return out
}
