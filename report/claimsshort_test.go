package report

import (
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/oncesim/once/report/lang"
)

func TestClaimsShortPartsTwoClaimsByAComma(t *testing.T) {
	defer lang.Set(lang.Current())
	for _, c := range []struct {
		l        lang.Lang
		in, want string
	}{
		{lang.Russian, "≤1 lost invariants", "≤1 потеря, инварианты"},
		{lang.Russian, "≤1 refused invariants", "≤1 отказ, инварианты"},
		{lang.Russian, "=1 invariants", "=1 инварианты"},
		{lang.Romanian, "≥1 dup", "≥1 duplicat"},
		{lang.English, "≤1 lost invariants", "≤1 lost invariants"},
	} {
		lang.Set(c.l)
		if got := ClaimsShort(c.in); got != c.want {
			t.Errorf("%s ClaimsShort(%q) = %q, want %q", c.l, c.in, got, c.want)
		}
	}
}

// In Romanian and Russian no two translated claim words stand side by
// side with only a space between them, whatever the claims.
func TestClaimsShortNeverJoinsTwoNouns(t *testing.T) {
	defer lang.Set(lang.Current())
	var words []string
	for w := range claimWords {
		words = append(words, w)
	}
	sort.Strings(words) // a map's order would make the draws differ run to run
	rapid.Check(t, func(t *rapid.T) {
		claims := rapid.SliceOfN(rapid.SampledFrom(words), 1, 4).Draw(t, "claims")
		for _, l := range lang.Translated() {
			lang.Set(l)
			out := ClaimsShort(strings.Join(claims, " "))
			short := map[string]bool{}
			for _, c := range claims {
				if !strings.ContainsAny(c, "=≤≥") {
					short[lang.T(claimShortID+c)] = true
				}
			}
			for _, part := range strings.Split(out, ", ") {
				f := strings.Fields(part)
				for i := 1; i < len(f); i++ {
					if short[f[i-1]] && short[f[i]] {
						t.Fatalf("%s ClaimsShort(%q) = %q joins %q and %q without a comma", l, claims, out, f[i-1], f[i])
					}
				}
			}
		}
	})
}
