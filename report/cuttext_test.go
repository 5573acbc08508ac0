package report

import (
	"strings"
	"testing"

	"github.com/oncesim/once/report/lang"
)

// Every way the explorer says why it cut a search reads in Romanian and
// Russian with its value kept; English and an unknown reason stay as
// they are.
func TestCutText(t *testing.T) {
	defer lang.Set(lang.Current())
	cuts := map[string]string{
		"interrupted":                                    "",
		"state budget of 50 exhausted":                   "50",
		"memory budget of 64MiB exhausted":               "64MiB",
		"depth budget of 5 steps exhausted":              "5",
		"a schedule hit the run's time budget exhausted": "",
	}
	for _, l := range lang.Languages() {
		lang.Set(l)
		for cut, value := range cuts {
			got := CutText(cut)
			if l == lang.English {
				if got != cut {
					t.Errorf("en: %q, want %q", got, cut)
				}
				continue
			}
			if got == cut || strings.Contains(got, "<no value>") || !strings.Contains(got, value) {
				t.Errorf("%s: %q reads %q", l, cut, got)
			}
		}
		if got := CutText("something new"); got != "something new" {
			t.Errorf("%s: an unknown reason became %q", l, got)
		}
	}
}

// TestOrdinal: the rank of an effect, spelled once for every diagram.
func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestColumnsAlignsByCharacters(t *testing.T) {
	got := Columns([][]string{{"сценарий", "x"}, {"ab", "long"}})
	want := "сценарий  x\nab        long\n"
	if got != want {
		t.Errorf("Columns =\n%q, want\n%q", got, want)
	}
}
