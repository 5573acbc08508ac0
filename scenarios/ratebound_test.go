package scenarios

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRateBoundRejectsBadValues: expect.rate-bound is one line of reason,
// on a row with an every-run claim; anything else is refused at its
// line:column.
func TestRateBoundRejectsBadValues(t *testing.T) {
	base, err := os.ReadFile("catalog/expired-dedup-ttl.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const dup = `show: [dup], note: "just under`
	ttl90 := regexp.MustCompile(`rate-bound: "a window claim: 90s[^"]*"`).FindString(string(base))
	if ttl90 == "" {
		t.Fatal("the ttl=90s row of expired-dedup-ttl no longer has its rate-bound line")
	}
	for _, c := range []struct{ from, to, want string }{
		{dup, `show: [dup], rate-bound: "a window", note: "just under`, `:51:65: expect.rate-bound: the row shows no every-run claim`},
		{ttl90, `rate-bound: ""`, `:53:18: expect.rate-bound: say in one line why`},
		{ttl90, `rate-bound: true`, `:53:18: expect.rate-bound: say in one line why`},
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
	sc, err := Load("ok.yaml", base)
	if err != nil {
		t.Fatal(err)
	}
	bound := 0
	for i := range sc.Expect {
		if e := &sc.Expect[i]; e.RateBound != "" {
			bound++
			if len(e.HoldsClaims()) == 0 {
				t.Errorf("%s: rate-bound on a row with no every-run claim", e.Label())
			}
		}
	}
	if bound == 0 {
		t.Error("expired-dedup-ttl declares no rate-bound row: its ttl rows hold at their rates only")
	}
}
