package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/usererr"
)

// Select are the indices of the steps to take, in the course's order:
// every step from the one named by from, or the comma list of steps, or
// (both empty) every step. A step is named by number (1-based) or id.
func (c *Course) Select(from, steps string) ([]int, error) {
	if from != "" && steps != "" {
		return nil, fmt.Errorf("give --from or --steps, not both")
	}
	all := make([]int, len(c.Steps))
	for i := range all {
		all[i] = i
	}
	switch {
	case from != "":
		i, err := c.StepIndex(from)
		if err != nil {
			return nil, fmt.Errorf("--from %w", err)
		}
		return all[i:], nil
	case steps != "":
		var out []int
		for _, s := range strings.Split(steps, ",") {
			i, err := c.StepIndex(s)
			if err != nil {
				return nil, fmt.Errorf("--steps %w", err)
			}
			if slices.Contains(out, i) { // "1,1" or "1,double-billing": the step would be taken twice
				id := c.Steps[i].ID
				return nil, usererr.New("step_twice", map[string]any{"Step": id}, fmt.Sprintf("--steps: %s given twice (each step is taken once)", id))
			}
			out = append(out, i)
		}
		return out, nil
	}
	return all, nil
}

// StepIndex reads a step by number (1-based) or id.
func (c *Course) StepIndex(s string) (int, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > len(c.Steps) {
			return 0, usererr.New("step_out_of_range", map[string]any{"N": n, "Total": len(c.Steps)},
				fmt.Sprintf("%d: want a step 1..%d", n, len(c.Steps)))
		}
		return n - 1, nil
	}
	var ids []string
	for i, st := range c.Steps {
		if st.ID == s {
			return i, nil
		}
		ids = append(ids, st.ID)
	}
	return 0, fmt.Errorf("%q: no such step (want 1..%d or one of %s)", s, len(c.Steps), strings.Join(ids, ", "))
}
