package main

import (
	"strings"
	"testing"
)

// TestTwoGeneralsInTheirWords: the Two Generals' run is told for the
// generals, not for a customer, and the matrix says what its lost and
// broken columns count there (nobody attacked, one attacked alone), in
// each language; a payment scenario keeps "for the customer" and no such
// line.
func TestTwoGeneralsInTheirWords(t *testing.T) {
	for _, c := range []struct{ lang, party, customer, legend string }{
		{"en", "for the generals", "for the customer", "nobody attacked — holding back together is agreement"},
		{"ro", "pentru generali", "pentru client", "nimeni n-a atacat — a se abține împreună e acord"},
		{"ru", "для генералов", "для клиента", "никто не атаковал: воздержаться вместе — это согласие"},
	} {
		_, run, _ := executeWithInput([]string{"run", "two-generals", "--lang", c.lang}, "")
		if !strings.Contains(run, c.party) || strings.Contains(run, c.customer) {
			t.Errorf("%s: run two-generals does not speak %q (or speaks %q):\n%s", c.lang, c.party, c.customer, run)
		}
		_, matrix, _ := executeWithInput([]string{"matrix", "two-generals", "--seeds", "5", "--lang", c.lang}, "")
		if !strings.Contains(matrix, c.legend) {
			t.Errorf("%s: matrix two-generals lacks %q:\n%s", c.lang, c.legend, matrix)
		}
		_, billing, _ := executeWithInput([]string{"run", "double-billing", "--lang", c.lang}, "")
		if !strings.Contains(billing, c.customer) || strings.Contains(billing, c.party) {
			t.Errorf("%s: run double-billing lost %q", c.lang, c.customer)
		}
		_, billingMatrix, _ := executeWithInput([]string{"matrix", "double-billing", "--seeds", "5", "--lang", c.lang}, "")
		if strings.Contains(billingMatrix, c.legend) {
			t.Errorf("%s: matrix double-billing has the generals' line", c.lang)
		}
	}
}
