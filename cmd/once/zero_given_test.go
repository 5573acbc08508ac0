package main

import "testing"

// TestGivenValuesThatMeantTheDefault: values a command took as "not
// given" (an empty output path, a 0 whose neighbour -1 is refused) or as
// something they were not (a fault kind twice, all inside a list) are
// refused in one line naming the flag, before any work.
func TestGivenValuesThatMeantTheDefault(t *testing.T) {
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--replicas 0: want a count in [1, 8]", []string{"lab", "double-billing", "--node", "service=true", "--replicas", "0"}},
		{`--save "": an empty path`, []string{"run", "double-billing", "--save", ""}},
		{`invalid argument "" for "--shard" flag: want i/n`, []string{"matrix", "double-billing", "--seeds", "1", "--shard", ""}},
		{`--out "": an empty path`, []string{"matrix", "double-billing", "--seeds", "1", "--out", ""}},
		{"--result /nonexistent-once-dir/r.json: cannot create a file in /nonexistent-once-dir", []string{"lesson", "--plain", "--steps", "1", "--result", "/nonexistent-once-dir/r.json"}},
		{`--faults "": an empty value`, []string{"lab", "double-billing", "--node", "service=true", "--explore", "--faults", ""}},
		{"--faults loss,loss: loss is given twice", []string{"explore", "double-billing", "--faults", "loss,loss"}},
		{"--semantics all: explore takes one semantics", []string{"explore", "double-billing", "--semantics", "all"}},
		{"--semantics txn: scenario double-billing supports amo, alo, idem", []string{"explore", "double-billing", "--semantics", "txn"}},
		{"--max-states -1: want at least 1", []string{"explore", "double-billing", "--max-states", "-1"}},
		{`--set: unknown parameter "colour"`, []string{"explore", "double-billing", "--set", "colour=blue"}},
		{`--steps "": an empty value`, []string{"lesson", "--plain", "--steps", ""}},
		{`--listen "": an empty value`, []string{"class", "--listen", ""}},
		{`--reduce "": an empty value`, []string{"explore", "double-billing", "--reduce", ""}},
		{`--student "": an empty value`, []string{"lesson", "--plain", "--student", ""}},
	} {
		oneLine(t, c.want, c.args...)
	}
}
