package scenarios_test

import (
	"strings"
	"testing"

	"github.com/oncesim/once/scenarios"
)

// TestExploreFaultsRefusesAStrayComma: "loss," is a typo, refused, not the
// list "loss" (issue 17: it was accepted).
func TestExploreFaultsRefusesAStrayComma(t *testing.T) {
	for _, list := range []string{"loss,", ",loss", "loss,,crash", "loss, ,crash"} {
		if _, _, err := scenarios.ExploreFaults(list); err == nil || !strings.Contains(err.Error(), "an empty fault kind") {
			t.Errorf("ExploreFaults(%q) = %v, want an empty-kind error", list, err)
		}
	}
	if _, names, err := scenarios.ExploreFaults(" , "); err != nil || len(names) != 0 {
		t.Errorf("no kind at all: %v %v (the caller says it names none)", names, err)
	}
	if _, names, err := scenarios.ExploreFaults(" loss , crash "); err != nil || len(names) != 2 {
		t.Errorf("spaces around kinds: %v %v", names, err)
	}
}

// TestExploreFaultsRefusesRepeatsAndAllInAList: "loss,loss" was taken
// (and printed "≤ 3 faults of loss,loss"), and "all,loss" was refused as
// an unknown kind "all" by a message whose own list offers all: each is
// now refused for what it is.
func TestExploreFaultsRefusesRepeatsAndAllInAList(t *testing.T) {
	for _, c := range []struct{ list, want string }{
		{"loss,loss", "--faults loss,loss: loss is given twice"},
		{"loss, crash ,crash", "crash is given twice"},
		{"all,loss", "--faults all,loss: all stands alone"},
		{"loss,all", "all stands alone"},
	} {
		_, _, err := scenarios.ExploreFaults(c.list)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "unknown fault kind") {
			t.Errorf("ExploreFaults(%q) = %v, want an error with %q", c.list, err, c.want)
		}
	}
	if _, names, err := scenarios.ExploreFaults(" all "); err != nil || len(names) < 2 {
		t.Errorf("all alone: %v %v", names, err)
	}
}
