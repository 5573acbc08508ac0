package sim

import "testing"

// englishOnly is an invariant from outside the catalog that gives its
// violation in English only.
type englishOnly struct{ Trace }

func (*englishOnly) Name() string                { return "english-only" }
func (*englishOnly) Violation(bool) string       { return "something broke" }
func (e *englishOnly) Clone() Invariant          { return e }
func (*englishOnly) AppendState(b []byte) []byte { return b }

// A violation keeps its values by name beside its English sentence; an
// invariant that gives only English still has a Detail, with no message
// id, so a report falls back to the sentence.
func TestViolationData(t *testing.T) {
	v := NewViolation("violation.x", 3, "op-4 did it 3 times", "Op", "op-4", "At", "330ms")
	if v.Held() {
		t.Fatal("a violation with a sentence reads as held")
	}
	d := v.Data()
	if d["Count"] != 3 || d["Op"] != "op-4" || d["At"] != "330ms" || len(d) != 3 {
		t.Errorf("Data() = %v", d)
	}
	if !(Violation{}).Held() {
		t.Error("the zero violation does not read as held")
	}
	got := DetailOf(&englishOnly{}, true)
	if got.ID != "" || got.English != "something broke" {
		t.Errorf("DetailOf an English-only invariant = %+v", got)
	}
}
