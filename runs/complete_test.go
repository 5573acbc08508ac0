package runs

import (
	"slices"
	"testing"
)

func TestFaultKindList(t *testing.T) {
	got := FaultKindList("loss,cr")
	if !slices.Equal(got, []string{"loss,crash"}) {
		t.Errorf("FaultKindList(loss,cr) = %v", got)
	}
	if got := FaultKindList(""); !slices.Contains(got, "all") || !slices.Contains(got, "loss") {
		t.Errorf("FaultKindList() = %v", got)
	}
	if got := FaultKindList("loss,"); slices.Contains(got, "loss,loss") || slices.Contains(got, "loss,all") {
		t.Errorf("FaultKindList(loss,) offers a kind twice or all: %v", got)
	}
}

func TestSetKeysAndNames(t *testing.T) {
	sc := lookup(t, "double-billing")
	if got := SetKeys(sc, "st"); !slices.Equal(got, []string{"store="}) {
		t.Errorf("SetKeys(st) = %v", got)
	}
	if got := ScenarioNames("double-b"); !slices.Equal(got, []string{"double-billing"}) {
		t.Errorf("ScenarioNames = %v", got)
	}
	if got := SemanticsNames(sc); got[len(got)-1] != "all" || len(got) != len(sc.Semantics)+1 {
		t.Errorf("SemanticsNames = %v", got)
	}
}
