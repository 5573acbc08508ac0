package sim

import (
	"encoding/json"
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
	const want = `{"loss":3,"duplicate":0,"slow":0,"crash":0,"pause":1,"late":0,"partition":1,"down":2}`
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
