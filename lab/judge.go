package lab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Judge is what a lab run answers to: the scenario's expectation row for
// the played semantics and parameters — what `once matrix` judges for that
// row: its every-run claims (the promise it keeps, the invariants, the
// losses it allows: a 422 that refuses a reused key, a 400, a 503) — or,
// when no row matches, the semantics' bare promise.
//
// It reads a run's outcome only, so the shared outcome classification
// (issue 17) can replace its inside without changing its callers.
type Judge struct {
	Scenario string
	Row      *scenarios.Expectation // nil: no row matches
	Promise  sim.Promise            // the semantics' own, when Row is nil
	// Receipts: the run is also judged by one-receipt (receipts.go): a
	// payment's retries are answered with the stored response.
	Receipts bool
}

// JudgeFor finds the row of the lab's scenario for semantics sem and the
// lab's parameters: a row of sem whose parameters, the scenario's defaults
// filled in, equal the lab's, those of the played nodes aside (a program
// plays them: `lock` or `reuse` of the built-in service says nothing about
// it). Among those it takes a row that keeps the scenario's faults before
// one that changes them, then the one that asks most of the played node:
// no duplicate or violation expected.
func (l *Lab) JudgeFor(sem sim.Semantics) Judge {
	j := Judge{Scenario: l.Scenario.Name, Promise: sem.Promise()}
	played := map[string]bool{}
	for _, n := range l.nodeNames() {
		for _, p := range l.Scenario.NodeParams(n) {
			played[p] = true
		}
	}
	mine, err := l.paramsAside(l.Settings.Params, played)
	if err != nil {
		return j
	}
	best, bestRank := -1, 0
	for i := range l.Scenario.Expect {
		e := &l.Scenario.Expect[i]
		if e.Semantics != sem {
			continue
		}
		theirs, err := l.paramsAside(e.Params, played)
		if err != nil || !slices.Equal(mine, theirs) {
			continue
		}
		rank := 0
		if e.Faults == nil {
			rank += 4
		}
		if !expectsBroken(e) {
			rank += 2
		}
		if best < 0 || rank > bestRank {
			best, bestRank = i, rank
		}
	}
	if best >= 0 {
		j.Row = &l.Scenario.Expect[best]
	}
	j.Receipts = l.judgesReceipts(sem, j.Row != nil && expectsBroken(j.Row))
	return j
}

// paramsAside resolves params against the scenario's defaults and drops
// those in aside, as sorted name=value pairs.
func (l *Lab) paramsAside(params map[string]string, aside map[string]bool) ([]string, error) {
	vals, err := scenarios.ResolveParams(l.Scenario.Params, params)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, kv := range vals.Sorted() {
		name, _, _ := strings.Cut(kv, "=")
		if !aside[name] {
			out = append(out, kv)
		}
	}
	return out, nil
}

// expectsBroken reports whether row e expects a duplicate or a violated
// invariant in some run.
func expectsBroken(e *scenarios.Expectation) bool {
	return slices.Contains(e.Claims, scenarios.ClaimDuplicates) || slices.Contains(e.Claims, scenarios.ClaimViolation)
}

// everyRun reports whether claim c is judged on every run (the others —
// dup, lost, violation — say what some run of a sweep shows).
func everyRun(c scenarios.Claim) bool {
	switch c {
	case scenarios.ClaimExactlyOnce, scenarios.ClaimAtMostOnce, scenarios.ClaimAtLeastOnce, scenarios.ClaimInvariants:
		return true
	}
	return false
}

// Against names what a run is judged against, for the output:
// "row `idem` of key-reuse-different-payload (≤1 lost invariants)".
func (j Judge) Against() string {
	var s string
	if j.Row == nil {
		s = fmt.Sprintf("the promise %s (no row of %s matches these parameters)", j.Promise, j.Scenario)
	} else {
		s = fmt.Sprintf("row `%s` of %s (%s)", j.Row.Label(), j.Scenario, j.Row.ClaimsString())
	}
	if j.Receipts {
		s += ", and " + receiptInvariant + ": a retry is answered with the stored response, the same transaction id"
	}
	return s
}

// Broken says, when the row expects the promise broken whatever the
// played node does — the scenario's client makes a new key per retry —
// what the row's note says; "" otherwise.
func (j Judge) Broken() string {
	if j.Row == nil || !expectsBroken(j.Row) {
		return ""
	}
	return fmt.Sprintf("this row expects the promise broken whatever your node does (another node is at fault): %s", j.Row.Note)
}

// Keeps names what a run that holds keeps: the promise, or the row's
// every-run claims ("≤1 invariants").
func (j Judge) Keeps() string {
	if j.Row == nil {
		if j.Receipts {
			return j.Promise.String() + " " + receiptInvariant
		}
		return j.Promise.String()
	}
	var parts []string
	for _, c := range j.Row.Claims {
		if everyRun(c) {
			parts = append(parts, c.String())
		}
	}
	if j.Receipts {
		parts = append(parts, receiptInvariant)
	}
	if len(parts) == 0 {
		return "nothing on every run"
	}
	return strings.Join(parts, " ")
}

// claimPromise is the promise a cardinality claim judges.
func claimPromise(c scenarios.Claim) sim.Promise {
	switch c {
	case scenarios.ClaimAtMostOnce:
		return sim.AtMostOne
	case scenarios.ClaimAtLeastOnce:
		return sim.AtLeastOne
	}
	return sim.ExactlyOne
}

// Verdict judges one run's world: Held when every every-run claim of the
// row holds (the promise, without a row), Violated with the first claim
// that does not, Unknown when the run was cut before it could show.
func (j Judge) Verdict(w *sim.World) (sim.Status, string) {
	status, why := j.VerdictReason(w)
	return status, why.String()
}

// RunVerdict judges one lab run: Verdict, except that a run the harness
// ended because it made no progress (Result.Stall) is judged as finished
// — what has not happened by then never will — and its reason says where
// it stalled.
func (j Judge) RunVerdict(r *Result) (sim.Status, string) {
	status, why := j.runReason(r)
	s := why.String()
	if r.Stall != nil && status != sim.Held {
		s += "; " + r.Stall.String()
	}
	return status, s
}

// runReason is RunVerdict with the reason kept as data.
func (j Judge) runReason(r *Result) (sim.Status, sim.Reason) {
	status, why := j.VerdictReason(r.World)
	if r.Stall == nil || status != sim.Unknown {
		return status, why
	}
	p := j.Promise
	if j.Row != nil {
		p = why.Promise
	}
	return r.World.Checker().JudgeReason(p, true)
}

// VerdictReason is Verdict with the reason kept as data, for a report in
// another language.
func (j Judge) VerdictReason(w *sim.World) (sim.Status, sim.Reason) {
	status, why := j.claimsReason(w)
	if !j.Receipts || status == sim.Violated && why.Kind != sim.ReasonDivergent {
		return status, why
	}
	// Two receipts for one payment: one-receipt says which two.
	for _, inv := range w.Outcome().Invariants {
		if inv.Name == receiptInvariant && inv.Violation != "" {
			return sim.Violated, sim.Reason{Kind: sim.ReasonInvariant, Promise: j.Promise, Invariant: inv.Name, Detail: inv.Violation, Message: inv.Detail}
		}
	}
	return status, why
}

// claimsReason is VerdictReason by the row's claims (the promise, with
// no row) alone.
func (j Judge) claimsReason(w *sim.World) (sim.Status, sim.Reason) {
	if j.Row == nil {
		return w.JudgeReason(j.Promise)
	}
	o := w.Outcome()
	var t scenarios.Tally
	t.Add(o)
	for _, c := range j.Row.Claims {
		if !everyRun(c) || c.Holds(&t) {
			continue
		}
		if c == scenarios.ClaimInvariants {
			for _, inv := range o.Invariants {
				if inv.Violation != "" {
					return sim.Violated, sim.Reason{Kind: sim.ReasonInvariant, Promise: j.Promise, Invariant: inv.Name, Detail: inv.Violation, Message: inv.Detail}
				}
			}
			continue
		}
		status, why := w.JudgeReason(claimPromise(c))
		if status == sim.Held {
			status, why = sim.Unknown, sim.Reason{Kind: sim.ReasonUnfinished, Promise: claimPromise(c)}
		}
		return status, why
	}
	return sim.Held, sim.Reason{}
}
