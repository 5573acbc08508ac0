package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oncesim/once/report"
)

// TestFramingCannotMislead (issue 19 item 1): the four runs a newcomer
// misread, in every language. The goldens are testdata/cli/framing.txt;
// this test states what they must not say, so that a rewrite cannot make
// them say it.
func TestFramingCannotMislead(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	langs := []struct {
		flag             string
		oldPromise       []string // the words of "its own promise: kept (≥1)"
		refused, partial string
		none             []string // "no effect", "not charged" as an outcome
	}{
		{"en", []string{"its own promise", "kept (", "broken ("}, "refused as designed", "one attacked alone", []string{"not charged ✗", "no effect ✗"}},
		{"ro", []string{"promisiunea proprie", "respectată (", "încălcată ("}, "refuzat intenționat", "unul a atacat singur", []string{"netaxat: ", "niciun efect: "}},
		{"ru", []string{"собственное обещание", "выполнено (", "нарушено ("}, "отклонено намеренно", "один атаковал в одиночку", []string{"не списано: ", "нет эффекта: "}},
	}
	for _, l := range langs {
		run := func(args ...string) string {
			t.Helper()
			code, out, errOut := runOnce(append(args, "--lang", l.flag)...)
			if code != 0 {
				t.Fatalf("%v --lang %s: exit %d: %s", args, l.flag, code, errOut)
			}
			for _, w := range l.oldPromise {
				if strings.Contains(out, w) {
					t.Errorf("%v --lang %s says %q: a guarantee must read apart from the customer's outcome", args, l.flag, w)
				}
			}
			return out
		}
		// double-billing: at-least-once keeps ≥1 while op-3 is charged twice;
		// both are said, each in its own words, on one line.
		out := run("run", "double-billing")
		if line := lineWith(out, "at-least-once:"); !strings.Contains(line, "≥1") || !strings.Contains(line, "op-3") || !strings.Contains(line, report.MarkBad) {
			t.Errorf("double-billing --lang %s: no line gives the guarantee ≥1 beside op-3's double charge:\n%s", l.flag, out)
		}
		// key-reuse and missing-key: the 422s and 400s are refusals, not losses.
		for _, sc := range []string{"key-reuse-different-payload", "missing-key-400"} {
			out := run("run", sc)
			if !strings.Contains(out, l.refused) {
				t.Errorf("%s --lang %s: no %q:\n%s", sc, l.flag, l.refused, out)
			}
			for _, n := range l.none {
				if strings.Contains(out, n) {
					t.Errorf("%s --lang %s: a refusal reads as %q:\n%s", sc, l.flag, n, out)
				}
			}
		}
		// missing-key-400 under alo: the invariant that decides the verdict is named.
		if line := lineWith(run("run", "missing-key-400"), "at-least-once:"); !strings.Contains(line, "keyed-charges") {
			t.Errorf("missing-key-400 --lang %s: the alo line does not name keyed-charges: %q", l.flag, line)
		}
		// two-generals: A attacked alone, in the generals' words (issue 30);
		// nothing says "no effect" beside max effects 1.
		out = run("run", "two-generals", "--seed", "4")
		if !strings.Contains(out, l.partial) || !strings.Contains(out, "general-a") || !strings.Contains(out, "agreement") {
			t.Errorf("two-generals --seed 4 --lang %s: the line does not say general-a attacked alone:\n%s", l.flag, out)
		}
		for _, n := range l.none {
			if strings.Contains(out, n) {
				t.Errorf("two-generals --seed 4 --lang %s: %q beside max effects 1:\n%s", l.flag, n, out)
			}
		}
	}
}

// TestRefusedOutcomeInJSON (issue 17 "must show"): the JSON of
// key-reuse-different-payload under idem gives the 422'd operations the
// outcome "refused", and the run its counts; verdict keeps "lost".
func TestRefusedOutcomeInJSON(t *testing.T) {
	code, out, errOut := runOnce("run", "key-reuse-different-payload", "--semantics", "idem", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc report.RunDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Results[0]
	if r.RunOutcome.Run != "completed" || r.RunOutcome.Counts.Refused != 2 || r.RunOutcome.Counts.Lost != 0 || r.Guarantee != "held" {
		t.Errorf("run outcome %+v, guarantee %q; want completed, 2 refused, 0 lost, held", r.RunOutcome, r.Guarantee)
	}
	for _, op := range r.Ops[1:] {
		if op.Outcome != "refused" || op.Verdict != "lost" {
			t.Errorf("op-%d: outcome %q verdict %q, want refused and lost", op.Op, op.Outcome, op.Verdict)
		}
	}
}

// lineWith is the first line of s that starts with prefix ("" if none).
func lineWith(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
