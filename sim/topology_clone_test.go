package sim

import (
	"reflect"
	"testing"
)

// Clone copies every exported field of a topology: a field added to
// Topology and left out of Clone fails here (the lab's session once
// rebuilt a topology field by field and lost its Kinds).
func TestTopologyCloneCopiesEveryField(t *testing.T) {
	orig := &Topology{Nodes: []NodeSpec{{Name: "a"}}, Messages: []string{"", "m"}, Timers: []string{"", "t"},
		Sinks: []string{"s"}, Points: []string{"", "p"}, Kinds: Builtin()}
	c := orig.Clone()
	ov, cv := reflect.ValueOf(orig).Elem(), reflect.ValueOf(c).Elem()
	for i := 0; i < ov.NumField(); i++ {
		f := ov.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if ov.Field(i).IsZero() {
			t.Errorf("the test leaves Topology.%s unset: give it a value", f.Name)
			continue
		}
		if !reflect.DeepEqual(ov.Field(i).Interface(), cv.Field(i).Interface()) {
			t.Errorf("Clone does not copy Topology.%s", f.Name)
		}
	}
}
