package scenarios

import (
	"github.com/oncesim/once/internal/fileio"

	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/oncesim/once/network"
	"github.com/oncesim/once/scenarios/roles"
	"github.com/oncesim/once/sim"
	"github.com/oncesim/once/sim/search"
)

var topologies = []string{"http", "queue", "kafka", "flink", "two-generals", "custom"}

// linkClasses are the values of a link's class: request (--loss applies),
// response (--ack-loss applies), reliable (FIFO, no faults).
var linkClasses = []string{"request", "response", "reliable"}

// Load reads a scenario file: strict YAML (unknown fields are errors),
// then every name, reference and value is checked, and the scenario is
// built once per semantics with its defaults so that nothing can fail
// later. Every error names the file, line and column.
//
// Before the YAML parser sees the bytes, they must be text (UTF-8, no NUL
// or control characters; a leading byte-order mark is skipped), at most
// MaxScenarioFileBytes long, nested at most MaxNestingDepth deep, and
// hold at most MaxScenarioNodes values and collections.
func Load(file string, data []byte) (sc *Scenario, err error) { return LoadWith(nil, file, data) }

// LoadWith is Load over cat (nil: RoleCatalog): its roles, invariants,
// metrics, kind names and fault kinds (Catalog.Engine). A file may name
// what cat holds and set a fault kind added to it, and the scenario
// carries the catalog and its fault kinds to the worlds it builds
// (Scenario.Catalog, Scenario.Kinds).
func LoadWith(cat *roles.Catalog, file string, data []byte) (sc *Scenario, err error) {
	if cat == nil {
		cat = RoleCatalog()
	}
	kinds := cat.Engine()
	data = stripBOM(data)
	p := checkInput(data, MaxScenarioFileBytes, "scenario file")
	if p == nil {
		p = checkShape(data)
	}
	if p != nil {
		return nil, &SpecError{File: file, Line: p.line, Col: p.col, Msg: p.msg}
	}
	tree, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, yamlError(file, err, nil)
	}
	if err := checkTree(file, tree); err != nil {
		return nil, err
	}
	defer func() {
		// The YAML library can still fail in ways checkTree does not
		// foresee; a user's file must never crash the program.
		if r := recover(); r != nil {
			sc, err = nil, &SpecError{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the YAML decoder failed on this file: %v", r)}
		}
	}()
	// Decode the tree already parsed (checkTree: exactly one document)
	// rather than parse the bytes a second time: the second parse was
	// half of a built-in scenario's decoding, which every command that
	// runs one pays at start-up.
	var body ast.Node
	for _, d := range tree.Docs {
		if d.Body != nil {
			body = d.Body
			break
		}
	}
	var spec fileSpec
	dec := yaml.NewDecoder(bytes.NewReader(nil), yaml.DisallowUnknownField())
	if err := dec.DecodeFromNode(body, &spec); err != nil {
		return nil, yamlError(file, err, tree)
	}
	l := &loader{file: file, spec: &spec, cat: cat, kinds: kinds}
	if sc, err = l.compile(); err != nil {
		return nil, err
	}
	sc.Source = data
	return sc, nil
}

func yamlError(file string, err error, tree *ast.File) error {
	var se *SpecError
	if errors.As(err, &se) {
		se.File = file
		return se
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		msg := ye.GetMessage()
		if tok := ye.GetToken(); tok != nil {
			if field := fieldAt(tree, tok.Position.Line, tok.Position.Column); field != "" {
				msg = field + ": " + msg
			}
			return &SpecError{File: file, Line: tok.Position.Line, Col: tok.Position.Column, Msg: msg}
		}
		return &SpecError{File: file, Line: 1, Col: 1, Msg: msg}
	}
	return &SpecError{File: file, Line: 1, Col: 1, Msg: err.Error()}
}

// checkTree rejects what the format does not use before decoding: an
// empty file, a second document, null values (which the decoder would
// turn into zero values without a position), YAML tags (which also trip
// a bug of the YAML library), and anchors and aliases (an alias expands
// on decoding, so a small file could decode into a huge one).
func checkTree(file string, tree *ast.File) error {
	docs := 0
	for _, d := range tree.Docs {
		if d.Body == nil {
			continue
		}
		docs++
		if docs > 1 {
			tok := d.Start
			if tok == nil {
				tok = d.Body.GetToken()
			}
			line, col := 1, 1
			if tok != nil {
				line, col = tok.Position.Line, tok.Position.Column
			}
			return &SpecError{File: file, Line: line, Col: col, Msg: "a second YAML document: a scenario file holds exactly one"}
		}
	}
	if docs == 0 {
		return &SpecError{File: file, Line: 1, Col: 1, Msg: "the file holds no scenario (want the fields name, topology, semantics, nodes, links, observe)"}
	}
	var tagErr error
	for _, d := range tree.Docs {
		ast.Walk(visitFunc(func(n ast.Node) bool {
			if tagErr != nil {
				return false
			}
			if mv, ok := n.(*ast.MappingValueNode); ok {
				if _, null := mv.Value.(*ast.NullNode); null {
					pos := mv.Key.GetToken().Position
					tagErr = &SpecError{File: file, Line: pos.Line, Col: pos.Column, Msg: fmt.Sprintf("%s has no value (null is not a value in a scenario file)", mv.Key.String())}
					return false
				}
			}
			switch a := n.(type) {
			case *ast.AnchorNode:
				pos := a.Start.Position
				tagErr = &SpecError{File: file, Line: pos.Line, Col: pos.Column, Msg: fmt.Sprintf("YAML anchor &%s: anchors and aliases are not part of the scenario format", a.Name)}
				return false
			case *ast.AliasNode:
				pos := a.Start.Position
				tagErr = &SpecError{File: file, Line: pos.Line, Col: pos.Column, Msg: fmt.Sprintf("YAML alias *%s: anchors and aliases are not part of the scenario format", a.Value)}
				return false
			}
			if t, ok := n.(*ast.TagNode); ok {
				pos := t.Start.Position
				tagErr = &SpecError{File: file, Line: pos.Line, Col: pos.Column, Msg: fmt.Sprintf("YAML tag %s: tags are not part of the scenario format", t.Start.Value)}
				return false
			}
			return true
		}), d)
	}
	return tagErr
}

type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if n == nil || !f(n) {
		return nil
	}
	return f
}

// fieldAt names the mapping key whose value starts at line:col, so a type
// error can say which field it is about.
func fieldAt(tree *ast.File, line, col int) string {
	if tree == nil {
		return ""
	}
	found := ""
	for _, d := range tree.Docs {
		ast.Walk(visitFunc(func(n ast.Node) bool {
			if found != "" {
				return false
			}
			if mv, ok := n.(*ast.MappingValueNode); ok && mv.Value != nil {
				if tok := mv.Value.GetToken(); tok != nil && tok.Position.Line == line && tok.Position.Column == col {
					found = mv.Key.String()
					return false
				}
			}
			return true
		}), d)
	}
	return found
}

type loader struct {
	file  string
	spec  *fileSpec
	cat   *roles.Catalog // the roles, invariants, metrics and names the file may use
	kinds *sim.Registry  // the fault kinds a faults: mapping may set (nil: the built-in ones)
}

func (l *loader) errAt(s Scalar, format string, args ...any) error {
	return &SpecError{File: l.file, Line: s.Line, Col: s.Col, Msg: fmt.Sprintf(format, args...)}
}

func (l *loader) require(s Scalar, field string) error {
	if !s.Set || strings.TrimSpace(s.Text) == "" {
		return &SpecError{File: l.file, Line: max(s.Line, 1), Col: max(s.Col, 1), Msg: fmt.Sprintf("missing required field %s", field)}
	}
	return nil
}

// faults reads a faults: mapping, every key a setting of the loader's
// fault kinds.
func (l *loader) faults(f *faultSpec) (Faults, error) {
	var out Faults
	for _, name := range l.kinds.FaultSettingNames() {
		if s, ok := (*f)[name]; ok {
			if err := l.unquoted(s, "faults."+name, "a number"); err != nil {
				return out, err
			}
			if err := l.kinds.Set(&out, name, s.Text); err != nil {
				return out, l.errAt(s, "faults.%v", err)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(*f)) {
		if !l.kinds.IsFaultSetting(name) {
			return out, l.errAt((*f)[name], "faults: unknown fault %q (want %s)", name, strings.Join(l.kinds.FaultSettingNames(), ", "))
		}
	}
	return out, nil
}

func (l *loader) compile() (*Scenario, error) {
	s := l.spec
	if err := l.require(s.Name, "name"); err != nil {
		return nil, err
	}
	if err := l.require(s.Topology, "topology"); err != nil {
		return nil, err
	}
	if !contains(topologies, s.Topology.Text) {
		return nil, l.errAt(s.Topology, "topology %q is not one of %s", s.Topology.Text, strings.Join(topologies, ", "))
	}
	if !isWord(s.Name.Text) {
		return nil, l.errAt(s.Name, "name %q: use letters, digits and . _ + - only", s.Name.Text)
	}
	sc := &Scenario{Name: s.Name.Text, Topology: s.Topology.Text, Summary: strings.TrimSpace(s.Summary.Text), File: l.file, spec: s, Ops: 5, Catalog: l.cat, Kinds: l.kinds}
	if len(s.Semantics) == 0 {
		return nil, &SpecError{File: l.file, Line: s.Name.Line, Col: 1, Msg: "missing required field semantics (a list: amo, alo, idem, txn)"}
	}
	for _, v := range s.Semantics {
		sem, err := sim.ParseSemantics(v.Text)
		if err != nil {
			return nil, l.errAt(v, "semantics: %v", err)
		}
		if sc.Supports(sem) {
			return nil, l.errAt(v, "semantics %s listed twice", sem.Alias())
		}
		sc.Semantics = append(sc.Semantics, sem)
	}
	if s.Ops.Set {
		n, err := l.integer(s.Ops, "ops", 1, 100_000)
		if err != nil {
			return nil, err
		}
		sc.Ops = n
	}
	if err := l.compileParams(sc); err != nil {
		return nil, err
	}
	var err error
	if sc.Faults, err = l.faults(&s.Faults); err != nil {
		return nil, err
	}
	if err := l.checkStructure(); err != nil {
		return nil, err
	}
	// Build once per semantics with the defaults: every role option,
	// node reference, link and sink is checked here, with its position.
	for _, sem := range sc.Semantics {
		if _, err := sc.Config(Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults}); err != nil {
			return nil, err
		}
	}
	if err := l.compileExpect(sc); err != nil {
		return nil, err
	}
	if err := l.compileLesson(sc); err != nil {
		return nil, err
	}
	if err := l.compileLive(sc); err != nil {
		return nil, err
	}
	return sc, l.compileExplore(sc)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (l *loader) compileParams(sc *Scenario) error {
	seen := map[string]bool{}
	for _, p := range l.spec.Params {
		if err := l.require(p.Name, "params[].name"); err != nil {
			return err
		}
		if seen[p.Name.Text] {
			return l.errAt(p.Name, "parameter %q declared twice", p.Name.Text)
		}
		if !isWord(p.Name.Text) {
			return l.errAt(p.Name, "parameter name %q: use letters, digits and . _ + - only", p.Name.Text)
		}
		for _, v := range p.Values {
			if !isWord(v.Text) {
				return l.errAt(v, "parameter %s: value %q: use letters, digits and . _ + - only", p.Name.Text, v.Text)
			}
		}
		seen[p.Name.Text] = true
		param := Param{Name: p.Name.Text, Default: p.Default.Text, Doc: strings.TrimSpace(p.Doc.Text)}
		switch p.Type.Text {
		case "enum", "":
			param.Kind = ParamEnum
			if len(p.Values) == 0 {
				return l.errAt(p.Name, "parameter %s: an enum needs values", p.Name.Text)
			}
			for _, v := range p.Values {
				param.Values = append(param.Values, v.Text)
			}
		case "duration":
			param.Kind = ParamDuration
		case "int":
			param.Kind = ParamInt
		default:
			return l.errAt(p.Type, "parameter %s: type %q is not one of enum, duration, int", p.Name.Text, p.Type.Text)
		}
		for _, b := range []struct {
			s   Scalar
			dst *int64
		}{{p.Min, &param.Min}, {p.Max, &param.Max}} {
			if !b.s.Set {
				continue
			}
			if param.Kind == ParamDuration {
				d, err := ParseDuration(b.s.Text)
				if err != nil {
					return l.errAt(b.s, "parameter %s: %v", p.Name.Text, err)
				}
				*b.dst = int64(d)
			} else {
				if err := l.unquoted(b.s, "parameter "+p.Name.Text, "a number"); err != nil {
					return err
				}
				n, err := strconv.ParseInt(b.s.Text, 10, 64)
				if err != nil {
					return l.errAt(b.s, "parameter %s: %q is not an integer", p.Name.Text, b.s.Text)
				}
				*b.dst = n
			}
		}
		if err := l.require(p.Default, "params[].default"); err != nil {
			return l.errAt(p.Name, "parameter %s has no default", p.Name.Text)
		}
		if _, err := param.parse(param.Default); err != nil {
			return l.errAt(p.Default, "default: %v", err)
		}
		sc.Params = append(sc.Params, param)
	}
	return nil
}

// checkStructure checks names and references that need no parameters.
func (l *loader) checkStructure() error {
	s := l.spec
	if len(s.Nodes) == 0 {
		return &SpecError{File: l.file, Line: s.Name.Line, Col: 1, Msg: "missing required field nodes"}
	}
	if len(s.Nodes) >= int(sim.NoNode) {
		return l.errAt(s.Nodes[0].Name, "too many nodes (%d)", len(s.Nodes))
	}
	names := map[string]bool{}
	for _, n := range s.Nodes {
		if err := l.require(n.Name, "nodes[].name"); err != nil {
			return err
		}
		if names[n.Name.Text] {
			return l.errAt(n.Name, "node %q declared twice", n.Name.Text)
		}
		if !isWord(n.Name.Text) {
			return l.errAt(n.Name, "node name %q: use letters, digits and . _ + - only", n.Name.Text)
		}
		names[n.Name.Text] = true
		if err := l.require(n.Role, "nodes[].role"); err != nil {
			return l.errAt(n.Name, "node %s has no role", n.Name.Text)
		}
		if _, ok := l.cat.Lookup(n.Role.Text); !ok {
			return l.errAt(n.Role, "unknown role %q (roles: %s)", n.Role.Text, l.cat.RoleNames())
		}
	}
	links := map[[2]string]bool{}
	for _, k := range s.Links {
		for _, end := range []Scalar{k.From, k.To} {
			if err := l.require(end, "links[].from/to"); err != nil {
				return err
			}
			if !names[end.Text] {
				return l.errAt(end, "link to a missing node %q", end.Text)
			}
		}
		pairs := [][2]string{{k.From.Text, k.To.Text}}
		if k.Both.Set {
			if err := l.unquoted(k.Both, "both", "true or false"); err != nil {
				return err
			}
			if _, err := strconv.ParseBool(k.Both.Text); err != nil {
				return l.errAt(k.Both, "both: %q is not true or false", k.Both.Text)
			}
		}
		if both, _ := strconv.ParseBool(k.Both.Text); both {
			pairs = append(pairs, [2]string{k.To.Text, k.From.Text})
		}
		for _, p := range pairs {
			if links[p] {
				return l.errAt(k.From, "link %s → %s declared twice", p[0], p[1])
			}
			links[p] = true
		}
		if k.Class.Set && !contains(linkClasses, k.Class.Text) {
			return l.errAt(k.Class, "link class %q is not one of %s", k.Class.Text, strings.Join(linkClasses, ", "))
		}
	}
	for _, n := range []struct {
		s     Scalar
		field string
	}{{s.Observe.Origin, "observe.origin"}, {s.Observe.Processor, "observe.processor"}} {
		if err := l.require(n.s, n.field); err != nil {
			return err
		}
		if !names[n.s.Text] {
			return l.errAt(n.s, "%s: no node named %q", n.field, n.s.Text)
		}
	}
	if err := l.require(s.Observe.Request, "observe.request"); err != nil {
		return err
	}
	if !contains(l.cat.Kinds().MessageNames()[1:], s.Observe.Request.Text) {
		return l.errAt(s.Observe.Request, "observe.request: unknown message kind %q (kinds: %s)", s.Observe.Request.Text, strings.Join(roles.SortedNames(l.cat.Kinds().MessageNames()[1:]), ", "))
	}
	if len(s.Observe.Sinks) == 0 {
		return l.errAt(s.Observe.Origin, "observe.sinks: name at least one sink")
	}
	if len(s.Observe.Sinks) > sim.MaxObservedSinks {
		return l.errAt(s.Observe.Sinks[0], "observe.sinks: at most %d sinks", sim.MaxObservedSinks)
	}
	for _, k := range s.Observe.Sinks {
		if !contains(l.cat.Kinds().SinkNames(), k.Text) {
			return l.errAt(k, "observe.sinks: unknown sink %q (sinks: %s)", k.Text, strings.Join(roles.SortedNames(l.cat.Kinds().SinkNames()), ", "))
		}
	}
	if err := l.checkOutcome(s.Observe.Outcome); err != nil {
		return err
	}
	if _, err := l.refusals(s.Observe.Refused); err != nil {
		return err
	}
	if _, err := l.inProgress(s.Observe.InProgress, s.Observe.Refused); err != nil {
		return err
	}
	for _, inv := range s.Invariants {
		if _, ok := l.cat.LookupInvariant(inv.Text); !ok {
			return l.errAt(inv, "unknown invariant %q (invariants: %s)", inv.Text, l.cat.InvariantNames())
		}
	}
	for _, m := range s.Metrics {
		if _, ok := l.cat.LookupMetric(m.Text); !ok {
			return l.errAt(m, "unknown metric %q (metrics: %s)", m.Text, l.cat.MetricNames())
		}
	}
	return nil
}

func (l *loader) compileExpect(sc *Scenario) error {
	for _, e := range l.spec.Expect {
		if err := l.require(e.Semantics, "expect[].semantics"); err != nil {
			return err
		}
		sem, err := sim.ParseSemantics(e.Semantics.Text)
		if err != nil {
			return l.errAt(e.Semantics, "expect: %v", err)
		}
		if !sc.Supports(sem) {
			return l.errAt(e.Semantics, "expect: the scenario does not list semantics %s", sem.Alias())
		}
		x := Expectation{Semantics: sem, Params: map[string]string{}, Note: strings.TrimSpace(e.Note.Text)}
		for _, k := range byPosition(e.Set) {
			if _, err := ResolveParams(sc.Params, map[string]string{k: e.Set[k].Text}); err != nil {
				return l.errAt(e.Set[k], "expect.set: %v", err)
			}
			x.Params[k] = e.Set[k].Text
		}
		if e.Faults != nil {
			f, err := l.faults(e.Faults)
			if err != nil {
				return err
			}
			x.Faults = &f
		}
		if e.Ops.Set {
			n, err := l.integer(e.Ops, "expect.ops", 1, 100_000)
			if err != nil {
				return err
			}
			x.Ops = n
		}
		if e.Explore.Set {
			if err := l.unquoted(e.Explore, "expect.explore", "a number"); err != nil {
				return err
			}
			n, err := strconv.Atoi(e.Explore.Text)
			if err != nil || n < 0 || n > search.MaxFaults {
				return l.errAt(e.Explore, "expect.explore: %q is not a fault count in [0, %d]", e.Explore.Text, search.MaxFaults)
			}
			x.Explore = n
		}
		if e.Headline.Set {
			if e.Headline.Quoted || (e.Headline.Text != "true" && e.Headline.Text != "false") {
				return l.errAt(e.Headline, "expect.headline: %q is not true or false", e.Headline.Text)
			}
			x.Headline = e.Headline.Text == "true"
			if x.Headline && len(x.Params) == 0 && x.Faults == nil && x.Ops == 0 {
				return l.errAt(e.Headline, "expect.headline: the row changes nothing (no set, faults or ops): the default run already shows it")
			}
		}
		if len(e.Show) == 0 {
			return l.errAt(e.Semantics, "expect: say what must show (show: [=1] or [dup] …)")
		}
		for _, c := range e.Show {
			claim, err := ParseClaim(c.Text)
			if err != nil {
				return l.errAt(c, "expect.show: %v", err)
			}
			x.Claims = append(x.Claims, claim)
		}
		if _, err := sc.Config(x.Settings(sc)); err != nil {
			return l.errAt(e.Semantics, "expect: %v", err)
		}
		if err := l.compileVacuity(sc, &e, &x); err != nil {
			return err
		}
		if err := l.compileRateBound(&e, &x); err != nil {
			return err
		}
		sc.Expect = append(sc.Expect, x)
	}
	return nil
}

func (l *loader) compileLesson(sc *Scenario) error {
	ls := &l.spec.Lesson
	sc.Outcome = outcomeWords(l.spec.Observe.Outcome)
	if err := l.compileSweep(sc); err != nil {
		return err
	}
	sc.Lesson = Lesson{
		Story: strings.TrimSpace(ls.Story.Text), Watch: strings.TrimSpace(ls.Watch.Text),
		Fix: strings.TrimSpace(ls.Fix.Text), Why: map[sim.Semantics]string{},
	}
	first := map[sim.Semantics]string{}
	for _, k := range byPosition(ls.Why) {
		v := ls.Why[k]
		sem, err := sim.ParseSemantics(k)
		if err != nil {
			return l.errAt(v, "lesson.why: %v", err)
		}
		if other, dup := first[sem]; dup {
			return l.errAt(v, "lesson.why: %s and %s name the same semantics (%s): keep one", other, k, sem)
		}
		first[sem] = k
		sc.Lesson.Why[sem] = strings.TrimSpace(v.Text)
	}
	for _, t := range ls.Try {
		sc.Lesson.Try = append(sc.Lesson.Try, strings.TrimSpace(t.Text))
	}
	return l.compileProvenance(sc)
}

// compileProvenance reads the lesson's source, follows and scaled rows: a
// source and a follows line are one line each, and a scaled row's param
// names a parameter of the scenario (its default is the value here unless
// the row says otherwise).
func (l *loader) compileProvenance(sc *Scenario) error {
	ls := &l.spec.Lesson
	for _, f := range []struct {
		s    Scalar
		name string
		dst  *string
	}{{ls.Source, "lesson.source", &sc.Lesson.Source}, {ls.Follows, "lesson.follows", &sc.Lesson.Follows}} {
		text := strings.TrimSpace(f.s.Text)
		if strings.Contains(text, "\n") {
			return l.errAt(f.s, "%s: want one line, found %d", f.name, strings.Count(text, "\n")+1)
		}
		*f.dst = text
	}
	for _, r := range ls.Scaled {
		v := ScaledValue{Name: strings.TrimSpace(r.Name.Text), Param: strings.TrimSpace(r.Param.Text),
			Here: strings.TrimSpace(r.Here.Text), Real: strings.TrimSpace(r.Real.Text), Why: strings.TrimSpace(r.Why.Text)}
		for _, req := range []struct {
			s     Scalar
			field string
		}{{r.Name, "name"}, {r.Real, "real"}, {r.Why, "why"}} {
			if err := l.require(req.s, "lesson.scaled."+req.field); err != nil {
				return err
			}
		}
		if v.Param != "" {
			i := slices.IndexFunc(sc.Params, func(p Param) bool { return p.Name == v.Param })
			if i < 0 {
				return l.errAt(r.Param, "lesson.scaled.param: %q is not a parameter of the scenario", v.Param)
			}
			if v.Here == "" {
				v.Here = sc.Params[i].Default
			}
		}
		if v.Here == "" {
			return l.errAt(r.Name, "lesson.scaled: %q needs here (or a param whose default is the value here)", v.Name)
		}
		sc.Lesson.Scaled = append(sc.Lesson.Scaled, v)
	}
	return nil
}

func (l *loader) compileExplore(sc *Scenario) error {
	e := &l.spec.Explore
	sc.ExploreDefaults = ExploreDefaults{Ops: 2, MaxFaults: 2, Faults: sim.ExploreDefaultKinds(), Property: "exactly-once"}
	if e.Property.Set {
		if e.Property.Text != "exactly-once" && e.Property.Text != "promise" {
			return l.errAt(e.Property, "explore.property: %q is not exactly-once or promise", e.Property.Text)
		}
		sc.ExploreDefaults.Property = e.Property.Text
	}
	if e.Ops.Set {
		n, err := l.integer(e.Ops, "explore.ops", 1, 1000)
		if err != nil {
			return err
		}
		sc.ExploreDefaults.Ops = n
	}
	if e.MaxPreemptions.Set {
		n, err := l.integer(e.MaxPreemptions, "explore.max-preemptions", 0, search.MaxPreemptions)
		if err != nil {
			return err
		}
		sc.ExploreDefaults.MaxPreemptions = n
	}
	if e.MaxFaults.Set {
		n, err := l.integer(e.MaxFaults, "explore.max-faults", 0, search.MaxFaults)
		if err != nil {
			return err
		}
		sc.ExploreDefaults.MaxFaults = n
	}
	if e.Faults.Set {
		if _, _, err := ExploreFaults(e.Faults.Text); err != nil {
			return l.errAt(e.Faults, "explore.faults: %v", err)
		}
		sc.ExploreDefaults.Faults = e.Faults.Text
	}
	return nil
}

// subst replaces a whole "$param" value by the parameter's value.
func subst(v Scalar, params Values) (string, bool) {
	if !strings.HasPrefix(v.Text, "$") {
		return v.Text, true
	}
	val, ok := params.raw[strings.TrimPrefix(v.Text, "$")]
	return val, ok
}

// buildSpec turns the spec and the settings into nodes, links and
// observation points.
func (l *loader) build(b *builder) error {
	s := l.spec
	ids := map[string]sim.NodeID{}
	for i, n := range s.Nodes {
		ids[n.Name.Text] = sim.NodeID(i)
	}
	for _, n := range s.Nodes {
		role, _ := l.cat.Lookup(n.Role.Text)
		opts := map[string]string{}
		for _, k := range byPosition(n.With) {
			v := n.With[k]
			if v.Line == 0 { // a null value: decoded without a position
				v.Line, v.Col = n.Role.Line, n.Role.Col
			}
			val, ok := subst(v, b.params)
			if !ok {
				return l.errAt(v, "node %s: option %s refers to unknown parameter %s", n.Name.Text, k, v.Text)
			}
			opts[k] = val
		}
		args := roles.NewArgs(n.Name.Text, role, opts, ids)
		node, tables := role.New(args)
		if errs := args.Errors(); len(errs) > 0 {
			e := errs[0]
			pos := n.Role
			if v, ok := n.With[e.Option]; ok && v.Line > 0 {
				pos = v
			}
			return l.errAt(pos, "node %s (role %s): %s", n.Name.Text, role.Name, e.Msg)
		}
		if extra := args.Unused(); len(extra) > 0 {
			first := byPosition(n.With)
			first = slices.DeleteFunc(first, func(k string) bool { return !slices.Contains(extra, k) })
			pos := n.With[first[0]]
			if pos.Line == 0 {
				pos = n.Role
			}
			return l.errAt(pos, "node %s: role %s has no option %q", n.Name.Text, role.Name, first[0])
		}
		spec := sim.NodeSpec{Name: n.Name.Text, Tables: tables, RestartAfter: 500}
		if role.Store {
			b.set.Faults.ApplyToStore(&spec)
		}
		if n.Crash.Set {
			if err := l.unquoted(n.Crash, "node "+n.Name.Text+": crash", "true or false"); err != nil {
				return err
			}
			crash, err := strconv.ParseBool(n.Crash.Text)
			if err != nil {
				return l.errAt(n.Crash, "node %s: crash: %q is not true or false", n.Name.Text, n.Crash.Text)
			}
			spec.Crashable = crash
			if crash {
				b.set.Faults.ApplyToNode(&spec)
			}
		}
		if n.Restart.Set {
			d, err := l.duration(n.Restart, b.params, "node "+n.Name.Text+": restart")
			if err != nil {
				return err
			}
			spec.RestartAfter = d
		}
		b.add(spec, node)
	}
	b.wire()
	for _, k := range s.Links {
		delay, jitter, err := l.delays(k, b.params)
		if err != nil {
			return err
		}
		var windows []network.Window
		for _, w := range k.Partitions {
			for _, end := range []struct {
				s    Scalar
				name string
			}{{w.From, "from"}, {w.To, "to"}} {
				if !end.s.Set || end.s.Text == "" {
					pos := w.From
					if !pos.Set {
						pos = w.To
					}
					if !pos.Set {
						pos = k.From
					}
					return l.errAt(pos, "partitions.%s: a window needs both from and to", end.name)
				}
			}
			from, err := l.duration(w.From, b.params, "partitions.from")
			if err != nil {
				return err
			}
			to, err := l.duration(w.To, b.params, "partitions.to")
			if err != nil {
				return err
			}
			if to < from {
				return l.errAt(w.To, "partition window ends (%s) before it starts (%s)", to, from)
			}
			windows = append(windows, network.Window{From: from, To: to})
		}
		class := k.Class.Text
		if class == "" {
			class = "request"
		}
		from, to := ids[k.From.Text], ids[k.To.Text]
		b.link(from, to, class, delay, jitter, windows)
		if both, _ := strconv.ParseBool(k.Both.Text); both {
			rev := map[string]string{"request": "response", "response": "request", "reliable": "reliable"}[class]
			b.link(to, from, rev, delay, jitter, windows)
		}
	}
	request, _ := indexOfName(l.cat.Kinds().MessageNames(), s.Observe.Request.Text)
	b.observe = sim.Observation{Origin: ids[s.Observe.Origin.Text], Request: sim.MsgKind(request), Processor: ids[s.Observe.Processor.Text]}
	b.observe.Refusals, _ = l.refusals(s.Observe.Refused)
	b.observe.InProgress, _ = l.inProgress(s.Observe.InProgress, s.Observe.Refused)
	for _, k := range s.Observe.Sinks {
		i, _ := indexOfName(l.cat.Kinds().SinkNames(), k.Text)
		b.observe.Sinks = append(b.observe.Sinks, sim.SinkID(i))
	}
	for _, inv := range s.Invariants {
		spec, _ := l.cat.LookupInvariant(inv.Text)
		b.invariants = append(b.invariants, spec)
	}
	for _, m := range s.Metrics {
		spec, _ := l.cat.LookupMetric(m.Text)
		b.metrics = append(b.metrics, spec)
	}
	if s.Budget.Events.Set {
		n, err := l.integer(s.Budget.Events, "budget.events", 1, sim.MaxEventBudget)
		if err != nil {
			return err
		}
		b.maxEvents = n
	}
	if s.Budget.Time.Set {
		d, err := l.duration(s.Budget.Time, b.params, "budget.time")
		if err != nil {
			return err
		}
		if d < 1 {
			return l.errAt(s.Budget.Time, "budget.time: %q is not a positive duration (0 would mean the default, %s)", s.Budget.Time.Text, sim.DefaultMaxTime)
		}
		b.maxTime = d
	}
	return nil
}

func indexOfName(names []string, name string) (int, bool) {
	for i, n := range names {
		if n == name && n != "" {
			return i, true
		}
	}
	return 0, false
}

func (l *loader) duration(v Scalar, params Values, field string) (sim.Time, error) {
	val, ok := subst(v, params)
	if !ok {
		return 0, l.errAt(v, "%s refers to unknown parameter %s", field, v.Text)
	}
	d, err := ParseDuration(val)
	if err != nil {
		return 0, l.errAt(v, "%s: %v", field, err)
	}
	return d, nil
}

func (l *loader) delays(k linkSpec, params Values) (sim.Time, sim.Time, error) {
	var delay, jitter sim.Time
	var err error
	if k.Delay.Set {
		if delay, err = l.duration(k.Delay, params, "delay"); err != nil {
			return 0, 0, err
		}
	}
	if k.Jitter.Set {
		if jitter, err = l.duration(k.Jitter, params, "jitter"); err != nil {
			return 0, 0, err
		}
	}
	if delay > network.MaxDelay {
		return 0, 0, l.errAt(k.Delay, "delay: %s is above the limit of %s", delay, network.MaxDelay)
	}
	if jitter > network.MaxDelay {
		return 0, 0, l.errAt(k.Jitter, "jitter: %s is above the limit of %s", jitter, network.MaxDelay)
	}
	return delay, jitter, nil
}

// isWord reports whether s can stand as one word of a plan file or a
// command line: letters, digits and . _ + - (names, parameter values).
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '+' || r == '-' || r == ':' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// LoadFile reads and loads the scenario file at path through a bounded
// reader (a device, a directory or a socket is refused before any read);
// errors name the file and, for its content, the line and column.
func LoadFile(path string) (*Scenario, error) {
	data, err := fileio.Read(path, MaxScenarioFileBytes)
	if err != nil {
		return nil, fmt.Errorf("scenario file %s: %w", path, err)
	}
	return Load(path, data)
}
