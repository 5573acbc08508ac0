package scenarios

import (
	"fmt"
	"sort"
	"strings"
)

// Check validates what a parsed plan asks of its scenario — the semantics
// and every `set` parameter — and reports the first problem at its line
// and column in the plan file called name. Parameters are checked in the
// order they appear in the file.
func (p *Plan) Check(name string, sc *Scenario) error {
	if !sc.Supports(p.Semantics) {
		pos := p.semanticsPos
		if pos.line == 0 {
			pos = planPos{max(p.NameLine, 1), 1}
		}
		aliases := make([]string, len(sc.Semantics))
		for i, s := range sc.Semantics {
			aliases[i] = s.Alias()
		}
		return &PlanError{File: name, Line: pos.line, Col: pos.col,
			Msg: fmt.Sprintf("semantics: scenario %s does not support %s (it has: %s)", sc.Name, p.Semantics.Alias(), strings.Join(aliases, ", "))}
	}
	for _, k := range p.paramsInFileOrder() {
		pos, ok := p.paramPos[k]
		if !ok {
			pos = planPos{max(p.NameLine, 1), 1}
		}
		if _, err := ResolveParams(sc.Params, map[string]string{k: p.Params[k]}); err != nil {
			col := pos.col
			if declared(sc.Params, k) && ok {
				col += len(k) + 1 // point at the value
			}
			return &PlanError{File: name, Line: pos.line, Col: col, Msg: fmt.Sprintf("set: %v", err)}
		}
	}
	return nil
}

// paramsInFileOrder returns the plan's parameter names by position in the
// file (names without one, from a plan built in code, by name, first).
func (p *Plan) paramsInFileOrder() []string {
	keys := make([]string, 0, len(p.Params))
	for k := range p.Params {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := p.paramPos[keys[i]], p.paramPos[keys[j]]
		if a != b {
			return a.line < b.line || (a.line == b.line && a.col < b.col)
		}
		return keys[i] < keys[j]
	})
	return keys
}

func declared(decl []Param, name string) bool {
	for i := range decl {
		if decl[i].Name == name {
			return true
		}
	}
	return false
}
