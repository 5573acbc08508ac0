package runs

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// ListEntry is one scenario of `once list`.
type ListEntry struct {
	Name      string   `json:"name"`
	Topology  string   `json:"topology"`
	Semantics []string `json:"semantics"`
	Summary   string   `json:"summary"`
}

// List is the catalog as `once list` prints it, read from the catalog's
// index (no scenario file is decoded); translated, the summary is in the
// chosen language (JSON stays English: it is a contract).
func List(translated bool) []ListEntry {
	var out []ListEntry
	for _, s := range scenarios.Index() {
		e := ListEntry{Name: s.Name, Topology: s.Topology, Summary: s.Summary, Semantics: s.Semantics}
		if translated {
			e.Summary = lang.Lesson(s.Name, "summary", s.Summary)
		}
		out = append(out, e)
	}
	return out
}

// WriteListText writes the catalog as a table with a header row.
func WriteListText(w io.Writer, entries []ListEntry) error {
	rows := [][]string{{lang.T("list.scenario"), lang.T("list.topology"), lang.T("list.semantics"), lang.T("list.summary")}}
	for _, e := range entries {
		rows = append(rows, []string{e.Name, e.Topology, strings.Join(e.Semantics, ","), e.Summary})
	}
	_, err := io.WriteString(w, report.Columns(rows))
	return err
}

// RoleOption is one option of a role, as `once roles` prints it.
type RoleOption struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Default string   `json:"default,omitempty"`
	Values  []string `json:"values,omitempty"`
	Doc     string   `json:"doc"`
}

// Role is one role a scenario file can use, with its options.
type Role struct {
	Name    string       `json:"name"`
	Doc     string       `json:"doc"`
	Options []RoleOption `json:"options"`
}

// Roles are the roles a scenario file can use.
func Roles() []Role {
	var out []Role
	for _, r := range scenarios.RoleCatalog().All() {
		d := Role{Name: r.Name, Doc: r.Doc, Options: []RoleOption{}}
		for _, o := range r.Options {
			opt := o.Describe()
			d.Options = append(d.Options, RoleOption{Name: opt.Name, Kind: opt.Kind, Default: opt.Default, Values: opt.Values, Doc: opt.Doc})
		}
		out = append(out, d)
	}
	return out
}

// InvariantDoc is a named invariant a scenario file can ask for.
type InvariantDoc struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// Invariants are the invariants a scenario file can name (invariants:).
func Invariants() []InvariantDoc {
	var out []InvariantDoc
	for _, s := range scenarios.RoleCatalog().Invariants() {
		out = append(out, InvariantDoc{Name: s.Name, Doc: s.Doc})
	}
	return out
}

// Sinks are the sinks effects are counted on (observe.sinks; a lab
// node's effect names one as its dest), sorted.
func Sinks() []string {
	var out []string
	for _, s := range scenarios.RoleCatalog().Kinds().SinkNames() {
		if s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// writeChecksText writes, after the roles, the invariants with their
// docs and the sinks.
func writeChecksText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", lang.T("list.invariants"))
	invs := Invariants()
	width := 0
	for _, c := range invs {
		width = max(width, len(c.Name))
	}
	for _, c := range invs {
		fmt.Fprintf(&b, "    %-*s  %s\n", width, c.Name, c.Doc)
	}
	fmt.Fprintf(&b, "\n%s\n    %s\n", lang.T("list.sinks"), strings.Join(Sinks(), ", "))
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteRolesText writes each role, then its options one a line; then
// the invariants a scenario file can name and the sinks.
func WriteRolesText(w io.Writer, rs []Role) error {
	var b strings.Builder
	for i, d := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s — %s\n", d.Name, d.Doc)
		for _, opt := range d.Options {
			kind := opt.Kind
			if len(opt.Values) > 0 {
				kind = strings.Join(opt.Values, "|")
			}
			def := ""
			if opt.Default != "" {
				def = " (default " + opt.Default + ")"
			}
			fmt.Fprintf(&b, "    %-16s %s%s: %s\n", opt.Name, kind, def, opt.Doc)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return writeChecksText(w)
}
