package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/internal/usererr"
	"github.com/oncesim/once/sim"
)

// Claim is one thing a scenario must show under a semantics. "All" claims
// must hold in every run; "some" claims in at least one run of a sweep.
type Claim uint8

// The claims, with their spelling in scenario files.
const (
	ClaimExactlyOnce Claim = iota + 1 // "=1": all runs — no op duplicated, no op lost on a finished run, no invariant violated
	ClaimAtMostOnce                   // "<=1": all runs — no op duplicated
	ClaimAtLeastOnce                  // ">=1": all finished runs — no op lost
	ClaimDuplicates                   // "dup": some run duplicates an op
	ClaimLosses                       // "lost": some finished run loses an op
	ClaimInvariants                   // "invariants": all runs — every invariant holds
	ClaimViolation                    // "violation": some run violates an invariant
	ClaimRefusals                     // "refused": some finished run refuses an op as designed (observe.refused)
	ClaimNeverDone                    // "never-completes": some finished run leaves an op that never completes (observe.in-progress)
)

var claimNames = map[string]Claim{
	"=1": ClaimExactlyOnce, "<=1": ClaimAtMostOnce, "≤1": ClaimAtMostOnce, ">=1": ClaimAtLeastOnce, "≥1": ClaimAtLeastOnce,
	"dup": ClaimDuplicates, "lost": ClaimLosses, "invariants": ClaimInvariants, "violation": ClaimViolation,
	"refused": ClaimRefusals, "never-completes": ClaimNeverDone,
}

// String returns the claim's canonical spelling.
func (c Claim) String() string {
	switch c {
	case ClaimExactlyOnce:
		return "=1"
	case ClaimAtMostOnce:
		return "≤1"
	case ClaimAtLeastOnce:
		return "≥1"
	case ClaimDuplicates:
		return "dup"
	case ClaimLosses:
		return "lost"
	case ClaimInvariants:
		return "invariants"
	case ClaimViolation:
		return "violation"
	case ClaimRefusals:
		return "refused"
	case ClaimNeverDone:
		return "never-completes"
	}
	return "?"
}

// ParseClaim reads a claim as written in a scenario file.
func ParseClaim(s string) (Claim, error) {
	if c, ok := claimNames[strings.TrimSpace(s)]; ok {
		return c, nil
	}
	return 0, fmt.Errorf("unknown claim %q (want =1, <=1, >=1, dup, lost, refused, never-completes, invariants, violation)", s)
}

// Expectation is what a scenario declares it must show under one
// semantics, optionally with other parameters or faults (a bug or a fix).
type Expectation struct {
	Semantics sim.Semantics
	Params    map[string]string // on top of the scenario's defaults
	Faults    *Faults           // replaces the scenario's default faults
	Ops       int               // 0 = the scenario's
	Claims    []Claim
	Note      string
	Explore   int // > 0: also prove the "all" claims by exhaustive search with this many faults
	// Headline rows are run by the default `once run` beside the
	// semantics, so that a lesson that needs a --set (the dual-write gap
	// of an outbox, a blind retry) shows in the summary table itself.
	Headline bool
	// Unprotected switches off the mechanism the row's every-run claims
	// rest on (nil: none declared); Inherent, instead, says why they hold
	// by the semantics alone. The vacuity test runs every row both ways.
	Unprotected *Unprotected
	Inherent    string
	// RateBound, when not empty, says why the every-run claims hold at
	// the row's own fault rates and not at every rate: a time window (a
	// dedup TTL, an ack deadline) that a long enough run of faults
	// outlasts, or a rate the faults set. Explore proves such a row up to
	// its fault bound; a swarm (once matrix --swarm) runs it at its own
	// rates instead of drawing a profile, and says why.
	RateBound string
}

// Label names the row in a matrix: "idem", or "idem store=memory".
func (e *Expectation) Label() string {
	parts := append([]string{e.Semantics.Alias()}, sortedPairs(e.Params)...)
	return strings.Join(parts, " ")
}

// ClaimsString renders the claims, e.g. "≥1 dup".
func (e *Expectation) ClaimsString() string {
	parts := make([]string, len(e.Claims))
	for i, c := range e.Claims {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// Settings returns the run settings of the expectation for seed-free use.
func (e *Expectation) Settings(sc *Scenario) Settings {
	set := Settings{Semantics: e.Semantics, Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{}}
	for k, v := range e.Params {
		set.Params[k] = v
	}
	if e.Faults != nil {
		set.Faults = *e.Faults
	}
	if e.Ops > 0 {
		set.Ops = e.Ops
	}
	return set
}

// Tally folds many runs of one expectation row into counts, in constant
// memory, so the claims can be judged over a whole sweep.
type Tally struct {
	Runs        int        `json:"runs"`
	Finished    int        `json:"finished"`
	WithLost    int        `json:"runs_with_lost"`       // finished runs with a lost op (a designed refusal is not a loss)
	WithRefused int        `json:"runs_with_refused"`    // finished runs with an op refused as designed
	WithDup     int        `json:"runs_with_duplicated"` // runs with a duplicated op
	InvViolated int        `json:"runs_with_violation"`  // runs where an invariant was violated
	Ops         int        `json:"ops"`
	Effects     int        `json:"effects"`
	Metrics     []ExactSum `json:"-"` // per declared metric, the exact sum over the runs

	// NeverDone counts the finished runs with an op that never completes
	// (told "in progress" until the client gave up): they are in WithLost
	// too, this says why.
	NeverDone int `json:"runs_never_completing,omitempty"`
}

// Add folds one outcome in.
func (t *Tally) Add(o *sim.Outcome) {
	t.Runs++
	lost, dup, refused, stuck := false, false, false, false // one pass over the operations
	for i := range o.Ops {
		op := &o.Ops[i]
		k := op.Class()
		refused = refused || k == sim.OpRefused
		stuck = stuck || k == sim.OpNeverCompletes
		lost = lost || (op.Verdict == sim.Lost && k != sim.OpRefused)
		dup = dup || op.Verdict == sim.Duplicated
		t.Effects += int(op.Effects)
	}
	t.Ops += len(o.Ops)
	if o.Finished() {
		t.Finished++
		if lost {
			t.WithLost++
		}
		if refused {
			t.WithRefused++
		}
		if stuck {
			t.NeverDone++
		}
	}
	if dup {
		t.WithDup++
	}
	for _, inv := range o.Invariants {
		if inv.Violation != "" {
			t.InvViolated++
			break
		}
	}
	if len(t.Metrics) < len(o.Metrics) {
		t.Metrics = append(t.Metrics, make([]ExactSum, len(o.Metrics)-len(t.Metrics))...)
	}
	for i, m := range o.Metrics {
		t.Metrics[i].Add(m.Value)
	}
}

// Merge adds another tally (from another worker, chunk or shard). Every
// field is a count or an exact sum, so merging in any order gives the same
// tally.
func (t *Tally) Merge(u *Tally) {
	t.Runs += u.Runs
	t.Finished += u.Finished
	t.WithLost += u.WithLost
	t.WithRefused += u.WithRefused
	t.NeverDone += u.NeverDone
	t.WithDup += u.WithDup
	t.InvViolated += u.InvViolated
	t.Ops += u.Ops
	t.Effects += u.Effects
	if len(t.Metrics) < len(u.Metrics) {
		t.Metrics = append(t.Metrics, make([]ExactSum, len(u.Metrics)-len(t.Metrics))...)
	}
	for i := range u.Metrics {
		t.Metrics[i].Merge(&u.Metrics[i])
	}
}

// Holds judges one claim over the tally.
func (c Claim) Holds(t *Tally) bool {
	switch c {
	case ClaimExactlyOnce:
		return t.WithDup == 0 && t.WithLost == 0 && t.InvViolated == 0 && t.Finished == t.Runs
	case ClaimAtMostOnce:
		return t.WithDup == 0
	case ClaimAtLeastOnce:
		return t.WithLost == 0 && t.Finished == t.Runs
	case ClaimDuplicates:
		return t.WithDup > 0
	case ClaimLosses:
		return t.WithLost > 0
	case ClaimRefusals:
		return t.WithRefused > 0
	case ClaimNeverDone:
		return t.NeverDone > 0
	case ClaimInvariants:
		return t.InvViolated == 0
	case ClaimViolation:
		return t.InvViolated > 0
	}
	return false
}

// Held reports whether every claim of e holds over t, and the first that
// does not.
func (e *Expectation) Held(t *Tally) (bool, string) {
	for _, c := range e.Claims {
		if !c.Holds(t) {
			return false, c.String()
		}
	}
	return true, ""
}

// exploreProbability is the nominal probability explore gives an enabled
// fault kind: any value in (0,1) offers the choice.
const exploreProbability = 0.5

// ExploreFaults turns a list of fault kinds ("loss,ack-loss,crash", or
// "all") into the fault profile that offers exactly those choices: an
// enabled kind gets a nominal probability, the others 0.
func ExploreFaults(list string) (Faults, []string, error) {
	var f Faults
	all := sim.FaultKindNames()
	if strings.TrimSpace(list) == "all" {
		list = strings.Join(all, ",")
	}
	var names []string
	if strings.Trim(list, ", \t") == "" {
		return f, nil, nil // no kind at all: the caller says so
	}
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			// "loss," or "loss,,crash": a stray comma is a typo, not a kind.
			return f, nil, fmt.Errorf("--faults %q: an empty fault kind (a stray comma?); want a comma list of %s, or all", list, strings.Join(all, ", "))
		}
		if k == "all" { // "all,loss": all stands alone, a list names kinds
			return f, nil, usererr.New("fault_kind_all_in_list", map[string]any{"List": list},
				fmt.Sprintf("--faults %s: all stands alone (it names every kind); give all, or a list of kinds", list))
		}
		if slices.Contains(names, k) {
			return f, nil, usererr.New("fault_kind_twice", map[string]any{"List": list, "Kind": k},
				fmt.Sprintf("--faults %s: %s is given twice", list, k))
		}
		kind, ok := sim.ParseFaultKind(k)
		if !ok {
			return f, nil, usererr.New("unknown_fault_kind", map[string]any{"Kind": k, "Want": strings.Join(all, ", ")},
				fmt.Sprintf("--faults: unknown fault kind %q (want %s, or all)", k, strings.Join(all, ", ")))
		}
		f.Probability[kind] = exploreProbability
		names = append(names, k)
	}
	return f, names, nil
}
