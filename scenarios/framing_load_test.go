package scenarios

import (
	"os"
	"strings"
	"testing"
)

// TestFramingFieldsRejectBadValues: observe.outcome, expect.headline and
// sweep hints name the field and the value that is wrong.
func TestFramingFieldsRejectBadValues(t *testing.T) {
	base, err := os.ReadFile("catalog/expired-dedup-ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"at: $replay", "at: $nothing", `sweep.marks[].at: "nothing" is not a duration parameter`},
		{"vary: ttl, at", "vary: interval2, at", `sweep.marks[].vary: "interval2" is not a duration parameter`},
		{"at: $replay", "at: soon", "sweep.marks[].at:"},
		{`once: "billed once"`, `once: "billed exactly one single time, as promised by the provider"`, "observe.outcome.once:"},
		{`none: "not billed"`, `none: ""`, "observe.outcome.none: empty"},
		{`- {semantics: alo, show: [">=1", dup]`, `- {semantics: alo, show: [">=1", dup], headline: true`, "expect.headline: the row changes nothing"},
		{`- {semantics: alo, show: [">=1", dup]`, `- {semantics: alo, show: [">=1", dup], set: {ttl: 1s}, headline: yes`, `expect.headline: "yes" is not true or false`},
	} {
		text := string(base)
		if !strings.Contains(text, c.from) {
			t.Fatalf("the catalog file no longer has %q", c.from)
		}
		_, err := Load("bad.yaml", []byte(strings.Replace(text, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
			t.Errorf("%s → %s: error %v, want one naming %q with its line", c.from, c.to, err, c.want)
		}
	}
	rate, err := os.ReadFile("catalog/ambiguous-external-outcome.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load("bad.yaml", []byte(strings.Replace(string(rate), "versus: unknown-arrival-rate", "versus: max-unknown-backlog", 1)))
	if err == nil || !strings.Contains(err.Error(), "not a rate per second") {
		t.Errorf("a rate against a count: %v", err)
	}
}

// TestInProgressRejectsBadValues: observe.in-progress names a status that
// asks the client to come back, once, and never one declared refused.
func TestInProgressRejectsBadValues(t *testing.T) {
	base, err := os.ReadFile("catalog/stuck-processing-lease.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const from = "in-progress: [409], refused: [503]"
	for _, c := range []struct{ to, want string }{
		{"in-progress: [201], refused: [503]", `observe.in-progress: "201" is not an in-progress status`},
		{"in-progress: [409, 409], refused: [503]", "observe.in-progress: 409 is named twice"},
		{"in-progress: [409], refused: [409]", "observe.in-progress: 409 is also in observe.refused"},
	} {
		text := string(base)
		if !strings.Contains(text, from) {
			t.Fatalf("the catalog file no longer has %q", from)
		}
		_, err := Load("bad.yaml", []byte(strings.Replace(text, from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
			t.Errorf("%s: error %v, want one naming %q with its line", c.to, err, c.want)
		}
	}
}
