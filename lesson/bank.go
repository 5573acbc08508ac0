package lesson

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// minChoices is the fewest choices a question offers: chance is at most
// one in four.
const minChoices = 4

// drawStream separates the sheet's draw from every other use of a seed.
const drawStream = 0x71756973686565 // "quishee"

// drawFormat numbers the rules of draw; the course version hashes it, so
// that a result is never graded against a sheet drawn by other rules.
// 2: a sheet prefers kinds of question it does not ask yet.
const drawFormat = 2

// checkKind checks the fields a question's kind needs against its run's
// scenario: the fault kinds a breaks question offers, the changes a fix
// question offers, the cuts a cut question reads, the class a cause
// question follows.
func (q *Question) checkKind(sc *scenarios.Scenario) error {
	switch q.Ask {
	case AskBreaks:
		if len(q.Faults) < minChoices {
			return fmt.Errorf("breaks offers %d fault kinds: want at least %d", len(q.Faults), minChoices)
		}
		for i, k := range q.Faults {
			if !slices.Contains(sim.FaultKindNames(), k) || slices.Contains(q.Faults[:i], k) {
				return fmt.Errorf("fault %q: unknown or repeated (want one of %v)", k, sim.FaultKindNames())
			}
		}
	case AskFix:
		if len(q.Sets) < minChoices {
			return fmt.Errorf("fix offers %d changes: want at least %d", len(q.Sets), minChoices)
		}
		for i, s := range q.Sets {
			k, v, err := scenarios.ParseSet(s)
			if err != nil || slices.Contains(q.Sets[:i], s) {
				return fmt.Errorf("change %q: want a new name=value (%v)", s, err)
			}
			set := scenarios.Settings{Semantics: sc.Semantics[0], Ops: sc.Ops, Faults: sc.Faults, Params: map[string]string{k: v}}
			if _, err := sc.Config(set); err != nil {
				return fmt.Errorf("change %q: %w", s, err)
			}
		}
	case AskCut:
		if q.cuts == nil {
			return fmt.Errorf("cut: the step has no cuts")
		}
	case AskCause:
		if q.Class != ClassMany && q.Class != ClassNone {
			return fmt.Errorf("cause class %q: want many or none", q.Class)
		}
	}
	return nil
}

// unordered says whether a question's choices have no natural order
// (fault kinds, changes, statements): those a sheet shuffles. Counts,
// operations, messages and trace lines keep their order.
func (q *Question) unordered() bool {
	return q.Ask == AskBreaks || q.Ask == AskFix || q.Ask == AskCut
}

// draw is the sheet of the step for seed: Draw questions of the bank
// (all when Draw is 0) — the questions marked Always first, then two in
// three of them mechanism questions, the rest evidence, as far as the
// bank has them, each of a kind (Ask) the sheet does not ask yet while
// the bank has one: two "which single fault" questions that differ by a
// parameter are one question asked twice — in the bank's order; each
// unordered question with its choices shuffled for the seed. The same
// seed gives the same sheet.
func (s *Step) draw(seed uint64) []Question {
	r := rand.New(rand.NewPCG(seed, drawStream))
	shuffles := make([]uint64, len(s.Bank))
	for i := range shuffles {
		shuffles[i] = r.Uint64() | 1
	}
	n := s.Draw
	if n == 0 || n > len(s.Bank) {
		n = len(s.Bank)
	}
	order := r.Perm(len(s.Bank))
	pick := make([]bool, len(s.Bank))
	picked := 0
	kinds := map[string]bool{} // the kinds of question picked
	take := func(want int, mechanism bool) {
		for _, fresh := range []bool{true, false} { // a kind not asked yet, then any
			for _, i := range order {
				if want == 0 || picked == n {
					return
				}
				q := &s.Bank[i]
				if !pick[i] && q.Mechanism() == mechanism && (!fresh || !kinds[q.Ask]) {
					pick[i], kinds[q.Ask] = true, true
					picked++
					want--
				}
			}
		}
	}
	mechanisms := (2*n + 2) / 3
	for i, q := range s.Bank {
		if q.Always && picked < n {
			pick[i], kinds[q.Ask] = true, true
			picked++
			if q.Mechanism() {
				mechanisms--
			}
		}
	}
	take(max(mechanisms, 0), true)
	take(n-picked, false)
	take(n-picked, true)
	var out []Question
	for i := range s.Bank {
		if pick[i] {
			q := s.Bank[i]
			if q.unordered() {
				q.shuffle = shuffles[i]
			}
			out = append(out, q)
		}
	}
	return out
}

// permutation is the order a sheet shows n choices of q in: order[k] is
// the index, among the choices as written, of the k-th choice shown.
func (q *Question) permutation(n int) []int {
	if q.shuffle == 0 {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		return order
	}
	return rand.New(rand.NewPCG(q.shuffle, uint64(n))).Perm(n)
}
