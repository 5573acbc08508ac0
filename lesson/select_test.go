package lesson

import (
	"fmt"
	"strings"
	"testing"
)

func TestSelectSteps(t *testing.T) {
	c := &Course{Steps: []Step{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
	for _, tc := range []struct{ from, steps, want string }{
		{"", "", "[0 1 2]"},
		{"2", "", "[1 2]"},
		{"c", "", "[2]"},
		{"", "3, a", "[2 0]"},
	} {
		got, err := c.Select(tc.from, tc.steps)
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("Select(%q, %q) = %v, %v; want %s", tc.from, tc.steps, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ from, steps, want string }{
		{"a", "b", "give --from or --steps, not both"},
		{"4", "", "--from 4: want a step 1..3"},
		{"", "a,z", `--steps "z": no such step (want 1..3 or one of a, b, c)`},
		// A step twice ran twice in the quiz and the pack, while once
		// class refused it: each is refused here, for every command.
		{"", "1,1", "--steps: a given twice"},
		{"", "b, 3 ,c", "--steps: c given twice"},
	} {
		if _, err := c.Select(tc.from, tc.steps); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Select(%q, %q) = %v, want %q", tc.from, tc.steps, err, tc.want)
		}
	}
}
