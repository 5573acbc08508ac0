package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFaultCountsJSON: the counts are written keyed by the fault table's
// names (an interleaving only when it happened) and read back the same;
// an unknown key is refused.
func TestFaultCountsJSON(t *testing.T) {
	f := FaultCounts{Partition: 1, Down: 2}
	f.Add(ChoiceLoss, 3)
	f.Add(ChoicePause, 1)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	// Every fault kind of the table that is not an interleaving, in table
	// order, then the consequences (a kind added to the table adds its
	// key here, with no edit to this test).
	want := "{"
	for _, k := range FaultChoiceKinds() {
		if !k.IsReorder() {
			want += `"` + k.String() + `":` + itoa(f.Of(k)) + ","
		}
	}
	want += `"partition":1,"down":2}`
	if !strings.HasPrefix(want, `{"loss":3,"duplicate":0,"slow":0,"crash":0,"pause":1,"late":0,`) {
		t.Fatalf("the built-in kinds moved: %s", want)
	}
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	f.Add(ChoicePreempt, 4)
	b, _ = json.Marshal(f)
	var back FaultCounts
	if err := json.Unmarshal(b, &back); err != nil || back != f {
		t.Fatalf("round trip of %s: %+v, %v; want %+v", b, back, err, f)
	}
	if err := json.Unmarshal([]byte(`{"jitter":1}`), &back); err == nil {
		t.Fatal("a choice kind that is no fault was accepted")
	}
}
