package scenarios

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/oncesim/once/sim"
)

// Field describes one field of the scenario file format, read from the
// loader's own declarations (the yaml, value and doc tags of fileSpec and
// the specs under it), so the JSON Schema (`once schema`) and the
// reference (docs/scenario-files.md) cannot drift from what Load accepts.
type Field struct {
	Name string // the YAML key
	Doc  string // one line
	// Shape is "object" (Fields), "list" (of Item), "map" (of Item), or
	// "value" (Value).
	Shape string
	// Value says what a "value" may be: "text", "word", "int", "bool",
	// "duration", "any", "faults", "role-options", "any-map",
	// "text-by-semantics" or "enum:SET" (Enum lists SET's members).
	Value    string
	Enum     []string
	Fields   []Field // of an object, in declaration order
	Item     *Field  // of a list or map
	Required bool    // the loader refuses a file without it
}

// FileFormat returns the scenario file format as a tree of fields.
func FileFormat() Field {
	return Field{Name: "", Shape: "object", Fields: structFields(reflect.TypeFor[fileSpec]())}
}

func structFields(t reflect.Type) []Field {
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		f := describe(name, sf.Tag.Get("doc"), sf.Tag.Get("value"), sf.Type)
		f.Required = sf.Tag.Get("required") == "true"
		out = append(out, f)
	}
	return out
}

var scalarType = reflect.TypeFor[Scalar]()

func describe(name, doc, value string, t reflect.Type) Field {
	if t.Kind() == reflect.Pointer && t.Elem() != scalarType {
		t = t.Elem()
	}
	f := Field{Name: name, Doc: doc}
	switch {
	case value == "faults" || value == "role-options" || value == "any-map" || value == "text-by-semantics":
		f.Shape, f.Value = "value", value
	case t == scalarType:
		f.Shape, f.Value = "value", value
	case t.Kind() == reflect.Slice:
		item := describe("", "", value, t.Elem())
		f.Shape, f.Item = "list", &item
	case t.Kind() == reflect.Map:
		item := describe("", "", value, t.Elem())
		f.Shape, f.Item = "map", &item
	case t.Kind() == reflect.Struct:
		f.Shape, f.Fields = "object", structFields(t)
	default:
		panic("scenarios: the file format has a field of an undescribed type: " + name + " " + t.String())
	}
	if set, ok := strings.CutPrefix(f.Value, "enum:"); ok {
		f.Enum = EnumValues(set)
	}
	if f.Item != nil && f.Item.Enum != nil {
		f.Enum = f.Item.Enum
	}
	return f
}

// EnumValues lists the members of a named set of the file format, the
// same lists the loader checks against: topology, semantics (aliases and
// long names), role, link-class, param-type, claim, property,
// fault-setting.
func EnumValues(set string) []string {
	switch set {
	case "topology":
		return slices.Clone(topologies)
	case "semantics":
		var out []string
		for _, s := range sim.AllSemantics {
			out = append(out, s.Alias(), s.String())
		}
		return out
	case "role":
		var out []string
		for _, r := range RoleCatalog().All() {
			out = append(out, r.Name)
		}
		return out
	case "link-class":
		return slices.Clone(linkClasses)
	case "param-type":
		return []string{"enum", "duration", "int"}
	case "claim":
		return slices.Sorted(maps.Keys(claimNames))
	case "property":
		return []string{"exactly-once", "promise"}
	case "broker":
		return slices.Clone(LiveBrokers)
	case "fault-setting":
		return sim.FaultSettingNames()
	}
	panic("scenarios: unknown enum set " + set)
}
