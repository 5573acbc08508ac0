package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// A target is what a view encodes to: a message, a row or a timer.
type target string

const (
	toMessage target = "message"
	toRecord  target = "record"
	toTimer   target = "timer"
)

// slot is one field of sim.Message, sim.Record or sim.Timer and its type.
type slot struct{ name, typ string }

// slots lists each target's slots in the order generated code names them.
var slots = map[target][]slot{
	toMessage: {{"Kind", "sim.MsgKind"}, {"Op", "sim.OpID"}, {"Attempt", "int32"}, {"Key", "int64"}, {"Payload", "int64"}, {"Value", "int64"}, {"Status", "int32"}},
	toRecord:  {{"State", "int32"}, {"Status", "int32"}, {"Value", "int64"}, {"Aux", "int64"}, {"At", "sim.Time"}},
	toTimer:   {{"Kind", "sim.TimerKind"}, {"Op", "sim.OpID"}, {"Attempt", "int32"}, {"Key", "int64"}, {"Phase", "int32"}},
}

// A view is one struct type with a //viewgen: directive.
type view struct {
	name     string
	to       target
	envelope bool   // message: encode takes a roles.Envelope
	kind     string // message, timer: the kind's expression, or "caller"
	decode   string // the decoder's name
	consts   map[string]string
	fields   []field
}

// A field is a view's field and the slot that carries it.
type field struct{ name, typ, slot string }

// exported reports whether the view's codec is exported.
func (v *view) exported() bool { return ast.IsExported(v.name) }

// method is the name of the view's method m (encode, onto, timer), capitalised for an exported view.
func (v *view) method(m string) string {
	if v.exported() {
		return strings.ToUpper(m[:1]) + m[1:]
	}
	return m
}

// mapped returns the expression that fills slot s (a field's or a
// constant's), the field (nil for a constant or a slot not mapped).
func (v *view) mapped(s string) (*field, string) {
	for i := range v.fields {
		if v.fields[i].slot == s {
			return &v.fields[i], ""
		}
	}
	return nil, v.consts[s]
}

// readPackage returns the package name and the views of the Go files in
// dir (not tests, not generated files), in file then declaration order.
func readPackage(dir string) (string, []*view, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", nil, err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	var files []*ast.File
	pkg := ""
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || filepath.Base(name) == genFile {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return "", nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return "", nil, err
		}
		pkg = f.Name.Name
		files = append(files, f)
	}
	ints := underlyingInts(files)
	var views []*view
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				line := directive(doc)
				if line == "" {
					continue
				}
				v, err := readView(ts, line, ints)
				if err != nil {
					return "", nil, fmt.Errorf("%s: %s: %w", fset.Position(ts.Pos()), ts.Name.Name, err)
				}
				views = append(views, v)
			}
		}
	}
	if len(views) == 0 {
		return "", nil, fmt.Errorf("%s: no type has a //viewgen: directive", dir)
	}
	return pkg, views, nil
}

// directive returns the text after "//viewgen:" in a doc comment, or "".
func directive(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	for _, c := range doc.List {
		if rest, ok := strings.CutPrefix(c.Text, "//viewgen:"); ok {
			return rest
		}
	}
	return ""
}

// underlyingInts maps each type the package defines on a predeclared
// integer type or bool (type idemKey int64) to that type.
func underlyingInts(files []*ast.File) map[string]string {
	m := map[string]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && !ts.Assign.IsValid() {
				if id, ok := ts.Type.(*ast.Ident); ok && widths[id.Name] != 0 {
					m[ts.Name.Name] = id.Name
				}
			}
			return true
		})
	}
	return m
}

// widths gives each integer type (and bool) a signed width: negative for
// unsigned. A type fits a slot when it is no wider, and an unsigned one
// fits a signed slot only if narrower.
var widths = map[string]int{
	"bool": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "int": 64,
	"uint8": -8, "byte": -8, "uint16": -16, "uint32": -32, "uint64": -64, "uint": -64,
	"sim.OpID": 32, "sim.Time": 64, "sim.NodeID": -8, "sim.MsgKind": -16, "sim.TimerKind": -8,
}

// fits reports whether a value of type typ (an entry of widths) survives
// a round trip through a slot of type slotTyp.
func fits(typ, slotTyp string) bool {
	w, s := widths[typ], widths[slotTyp]
	switch {
	case typ == "bool":
		return true
	case w > 0 && s > 0, w < 0 && s < 0:
		return abs(w) <= abs(s)
	case w < 0 && s > 0:
		return -w < s
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// readView reads the view declared by ts with directive line.
func readView(ts *ast.TypeSpec, line string, ints map[string]string) (*view, error) {
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return nil, fmt.Errorf("a view is a struct type")
	}
	words := strings.Fields(line)
	v := &view{name: ts.Name.Name, to: target(words[0]), consts: map[string]string{}}
	if _, ok := slots[v.to]; !ok {
		return nil, fmt.Errorf("//viewgen:%s: want message, record or timer", words[0])
	}
	v.decode = "decode" + strings.ToUpper(v.name[:1]) + v.name[1:]
	if v.exported() {
		v.decode = "Decode" + v.name
	}
	for _, w := range words[1:] {
		key, val, hasVal := strings.Cut(w, "=")
		switch {
		case key == "envelope" && !hasVal && v.to == toMessage:
			v.envelope = true
		case key == "kind" && hasVal && v.to != toRecord:
			v.kind = val
		case key == "decode" && hasVal:
			v.decode = val
		case hasVal && slotType(v.to, key) != "" && key != "Kind":
			v.consts[key] = val
		default:
			return nil, fmt.Errorf("//viewgen:%s: option %q is not one of envelope, kind=, decode= or Slot=constant", v.to, w)
		}
	}
	switch {
	case v.to == toMessage && v.envelope == (v.kind != ""):
		return nil, fmt.Errorf("a message view takes envelope or kind=, one of them")
	case v.to == toTimer && (v.kind == "" || v.kind == "caller"):
		return nil, fmt.Errorf("a timer view names its kind: kind=TimerX")
	}
	seen := map[string]string{}
	for s := range v.consts {
		seen[s] = "the constant " + v.consts[s]
	}
	for _, f := range st.Fields.List {
		typ := typeName(f.Type)
		tag := ""
		if f.Tag != nil {
			raw, _ := strconv.Unquote(f.Tag.Value)
			tag = reflect.StructTag(raw).Get("slot")
		}
		for _, n := range f.Names {
			if err := v.addField(n.Name, typ, tag, ints, seen); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// addField adds field name of type typ, carried in slot tag.
func (v *view) addField(name, typ, tag string, ints map[string]string, seen map[string]string) error {
	st := slotType(v.to, tag)
	switch {
	case tag == "":
		return fmt.Errorf("field %s has no slot tag (`slot:\"Key\"`)", name)
	case st == "":
		return fmt.Errorf("field %s: %q is not a slot of sim.%s", name, tag, targetType(v.to))
	case tag == "Kind" || (v.to == toTimer && tag == "Op") || (v.envelope && (tag == "Op" || tag == "Attempt")):
		return fmt.Errorf("field %s: slot %s is the %s's, not the view's", name, tag, map[bool]string{true: "envelope", false: "encoder"}[v.envelope])
	case seen[tag] != "":
		return fmt.Errorf("field %s: slot %s already holds %s", name, tag, seen[tag])
	}
	under := typ
	if u, ok := ints[typ]; ok {
		under = u
	}
	if widths[under] == 0 {
		return fmt.Errorf("field %s: type %s is not an integer type or bool", name, typ)
	}
	if !fits(under, st) {
		return fmt.Errorf("field %s: type %s does not fit slot %s (%s)", name, typ, tag, st)
	}
	seen[tag] = "field " + name
	v.fields = append(v.fields, field{name: name, typ: typ, slot: tag})
	return nil
}

// slotType is the type of slot s of target t, or "" if t has none.
func slotType(t target, s string) string {
	for _, sl := range slots[t] {
		if sl.name == s {
			return sl.typ
		}
	}
	return ""
}

// targetType is the sim type a target encodes to.
func targetType(t target) string {
	return map[target]string{toMessage: "Message", toRecord: "Record", toTimer: "Timer"}[t]
}

// typeName spells a field type that is a name or a qualified name; any
// other type is returned as "" (and refused).
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}
