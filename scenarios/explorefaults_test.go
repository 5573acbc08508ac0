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
