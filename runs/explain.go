package runs

import (
	"sort"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios"
)

// Explain gathers the lesson of sc: its text, and under each semantics
// the expectation rows that declare what it must show.
func Explain(sc *scenarios.Scenario) report.ExplainDoc {
	ls := sc.Lesson
	d := report.ExplainDoc{
		Scenario: sc.Name, Summary: Text(sc, "summary", sc.Summary), Topology: sc.Topology, Ops: sc.Ops, Faults: sc.Faults,
		Story: Text(sc, "story", ls.Story), Watch: Text(sc, "watch", ls.Watch), Fix: Text(sc, "fix", ls.Fix),
	}
	for _, sem := range sc.Semantics {
		s := report.ExplainSemantics{Name: sem.String(), Alias: sem.Alias(), Promise: sem.Promise().String(),
			Why: Text(sc, "why."+sem.Alias(), ls.Why[sem])}
		for i := range sc.Expect {
			e := &sc.Expect[i]
			if e.Semantics != sem {
				continue
			}
			var variant []string
			for _, k := range sortedKeys(e.Params) {
				variant = append(variant, k+"="+e.Params[k])
			}
			if c := e.Changes(sc); c != "" {
				variant = append(variant, c)
			}
			s.Expect = append(s.Expect, report.ExplainExpect{Variant: strings.Join(variant, " "), Claims: e.ClaimsString(), Note: Text(sc, "note."+e.RowKey(sc), e.Note)})
		}
		d.Semantics = append(d.Semantics, s)
	}
	for _, p := range sc.Params {
		d.Params = append(d.Params, report.ExplainParam{Name: p.Name, Values: p.Describe(), Default: p.Default, Doc: Text(sc, "param."+p.Name, p.Doc)})
	}
	d.Follows, d.Source = Text(sc, "follows", ls.Follows), ls.Source
	for _, r := range ls.Scaled {
		here := r.Here // a parameter's default is a value, not words
		if r.Param == "" {
			here = Text(sc, "scaled-here."+r.Name, r.Here)
		}
		d.Scaled = append(d.Scaled, report.ExplainScaled{Name: Text(sc, "scaled-name."+r.Name, r.Name), Here: here,
			Real: Text(sc, "scaled-real."+r.Name, r.Real), Why: Text(sc, "scaled."+r.Name, r.Why)})
	}
	d.Try = ls.Try
	if len(d.Try) == 0 {
		d.Try = []string{"once run " + sc.Name, "once matrix " + sc.Name}
	}
	if !FromCatalog(sc) {
		d.Try = make([]string, len(d.Try))
		for i, t := range ls.Try {
			d.Try[i] = fileCommand(t, sc)
		}
		if len(ls.Try) == 0 {
			d.Try = []string{"once run -f " + sc.File, "once matrix -f " + sc.File}
		}
	}
	return d
}

// fileCommand rewrites "once CMD NAME …" as "once CMD -f FILE …" for a
// scenario loaded from a file, whose name the catalog does not know.
func fileCommand(cmd string, sc *scenarios.Scenario) string {
	words := strings.Fields(cmd)
	if len(words) >= 3 && words[0] == "once" && words[2] == sc.Name {
		words = append(words[:2], append([]string{"-f", sc.File}, words[3:]...)...)
		return strings.Join(words, " ")
	}
	return cmd
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
