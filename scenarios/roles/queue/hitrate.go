package queue

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
)

// The dedup hit rate, as an operator's dashboard shows it: lookups in a
// dedup store that found their key, per lookup. It is folded from the
// trace's store events — a get on a table named "dedup" is a lookup, a
// found get not followed by the key's expiry is a hit — so it counts what
// the store answered, not what the duplicates really were: a key that no
// longer matches its copies, or an entry expired before its copy came,
// shows as a drop, while the duplicates it lets through show only in the
// effects.

// HitRateWindows is how many equal windows of time the hit rate is shown
// in: the span from the first lookup to the last, cut in quarters.
const HitRateWindows = 4

// HitRateMinLookups is the fewest lookups a window needs for the alert
// to judge it: below that one lost copy moves the rate by tens of
// percent, and a dashboard's alert waits for volume, as this one does.
const HitRateMinLookups = 10

// hitRateLookups folds the lookups: their times and whether each hit.
type hitRateLookups struct {
	dedup   []uint64
	at      []sim.Time
	hit     []bool
	pending bool  // the last lookup found its key; an expiry may follow
	node    int32 // the pending lookup's node and key
	key     int64
}

func (h *hitRateLookups) record(e *sim.Event) {
	if h.pending {
		h.pending = false
		if e.Kind == sim.EvStoreDelete && e.Found && int32(e.Node) == h.node && e.Msg.Key == h.key && isDedupEvent(h.dedup, e) {
			h.hit[len(h.hit)-1] = false // found, but expired: a miss
		}
	}
	if e.Kind != sim.EvStoreGet || !isDedupEvent(h.dedup, e) {
		return
	}
	h.at = append(h.at, e.At)
	h.hit = append(h.hit, e.Found)
	if e.Found {
		h.pending, h.node, h.key = true, int32(e.Node), e.Msg.Key
	}
}

// windows are the hit rate of each window in percent, and each window's
// lookups (a window without lookups has rate 0).
func (h *hitRateLookups) windows() (rates [HitRateWindows]float64, lookups [HitRateWindows]int) {
	if len(h.at) == 0 {
		return rates, lookups
	}
	first, last := h.at[0], h.at[len(h.at)-1]
	span := last - first + 1
	var hits [HitRateWindows]int
	for i, at := range h.at {
		w := int(int64(at-first) * HitRateWindows / int64(span))
		lookups[w]++
		if h.hit[i] {
			hits[w]++
		}
	}
	for w := range rates {
		if lookups[w] > 0 {
			rates[w] = math.Round(float64(100*hits[w]) / float64(lookups[w])) // whole percent: no decimal separator to localise
		}
	}
	return rates, lookups
}

func (h *hitRateLookups) clone() hitRateLookups {
	c := *h
	c.at, c.hit = slices.Clone(h.at), slices.Clone(h.hit)
	return c
}

func (h *hitRateLookups) appendState(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(h.at)))
	for i, at := range h.at {
		b = binary.AppendVarint(b, int64(at))
		b = appendFlag(b, h.hit[i])
	}
	if h.pending {
		b = append(b, 1)
		b = binary.AppendVarint(b, int64(h.node))
		return binary.AppendVarint(b, h.key)
	}
	return append(b, 0)
}

// hitRateWindow is the metric "dedup-hit-rate-qN", in percent: the hit
// rate of the N-th window of the run.
type hitRateWindow struct {
	hitRateLookups
	window int
}

// Name implements sim.Metric.
func (h *hitRateWindow) Name() string { return hitRateMetricName(h.window) }

// Record implements sim.Recorder.
func (h *hitRateWindow) Record(e *sim.Event) { h.record(e) }

// Value implements sim.Metric.
func (h *hitRateWindow) Value() float64 {
	rates, _ := h.windows()
	return rates[h.window]
}

func hitRateMetricName(window int) string { return "dedup-hit-rate-q" + strconv.Itoa(window+1) }

// hitRateSteady is the invariant "dedup-hit-rate-steady", the alert an
// operator sets on the dashboard: no window's hit rate falls below half
// the first window's, among windows of at least HitRateMinLookups
// lookups. It fires on a drop — the sign that the key no
// longer matches its copies or that entries expire before their copies
// come — and it is judged at the end of the run, when the windows are
// known.
type hitRateSteady struct{ hitRateLookups }

// Record implements sim.Recorder.
func (h *hitRateSteady) Record(e *sim.Event) { h.record(e) }

func (h *hitRateSteady) Name() string { return "dedup-hit-rate-steady" }

// ViolationDetail implements sim.ViolationDetailer.
func (h *hitRateSteady) ViolationDetail(bool) sim.Violation {
	rates, lookups := h.windows()
	if lookups[0] < HitRateMinLookups {
		return sim.Violation{}
	}
	for w := 1; w < HitRateWindows; w++ {
		if lookups[w] >= HitRateMinLookups && rates[w]*2 < rates[0] {
			first, then, n := pct(rates[0]), pct(rates[w]), strconv.Itoa(w+1)
			return sim.NewViolation("violation.dedup-hit-rate-steady", 0,
				fmt.Sprintf("the dedup hit rate fell from %s %% in window 1 to %s %% in window %s: the key or its TTL no longer catches the copies", first, then, n),
				"First", first, "Then", then, "Window", n)
		}
	}
	return sim.Violation{}
}

func (h *hitRateSteady) Violation(finished bool) string { return h.ViolationDetail(finished).English }
func (h *hitRateSteady) Clone() sim.Invariant {
	return &hitRateSteady{hitRateLookups: h.clone()}
}
func (h *hitRateSteady) AppendState(b []byte) []byte { return h.appendState(b) }

// pct writes a rate, a whole percent.
func pct(v float64) string { return strconv.Itoa(int(v)) }

func registerHitrate(c *roles.Catalog) {
	for w := range HitRateWindows {
		c.RegisterMetric(&roles.MetricSpec{
			Name: hitRateMetricName(w),
			Unit: "%",
			Doc:  fmt.Sprintf("percent: dedup lookups that found their key, per lookup, in window %d of %d of the run (the span from the first lookup to the last)", w+1, HitRateWindows),
			New: func(topo *sim.Topology) sim.Metric {
				return &hitRateWindow{hitRateLookups: hitRateLookups{dedup: dedupTables(topo)}, window: w}
			},
		})
	}
	c.RegisterInvariant(&roles.InvariantSpec{
		Name: "dedup-hit-rate-steady",
		Doc:  "the dashboard's alert: no window's dedup hit rate falls below half the first window's, among windows of at least 10 lookups (a drop says the key or its TTL stopped catching copies)",
		New: func(topo *sim.Topology) sim.Invariant {
			return &hitRateSteady{hitRateLookups{dedup: dedupTables(topo)}}
		},
	})
}
