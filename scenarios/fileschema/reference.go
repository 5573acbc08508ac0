package fileschema

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// Reference writes docs/scenario-files.md: every field of the format with
// its value and meaning, the fault settings, every role's options, and
// one complete catalog file per topology as an annotated example (the
// shortest of that topology in catalog, a folder of scenario files).
func Reference(catalog fs.FS) (string, error) {
	var b strings.Builder
	b.WriteString(`# Scenario files

<!-- Generated from the loader's declarations by
     make update ONLY=reference
     Do not edit by hand: the test fails when this page and the code differ. -->

A scenario is one YAML file: its nodes and the roles they play, the links
between them, the default faults, what the checker observes, the rows the
scenario must show, and the lesson ` + "`once explain`" + ` prints. The built-in
catalog (` + "`scenarios/catalog/`" + `) is written in exactly this format;
` + "`once run -f FILE`" + `, ` + "`once validate FILE`" + ` and the other commands take yours.

The loader is strict: an unknown field, a wrong type, a value out of range,
an unknown role or role option, a link to a missing node, a duplicate name —
each is an error with ` + "`FILE:LINE:COL`" + ` and exit code 2. Numbers and
booleans are written without quotes.

A file may ask for up to 100,000 operations and a billion events per run;
what a run keeps grows with both, so ` + "`once run`" + ` and ` + "`once live`" + ` hold
at most 1 GiB: every run charges a fixed cost per operation and each
trace event it keeps against that limit, and a command whose runs would
pass it is refused in one line (exit 2) naming what passed — the
operations, before any run starts, or a run's trace, cut at the same
event on every machine. ` + "`once validate`" + ` runs nothing and needs little.

## Editor support

` + "`once schema > once.schema.json`" + ` writes a JSON Schema (draft 2020-12) of
this format, generated from the same declarations as this page, with each
role's options tied to its ` + "`role:`" + `. With the YAML language server (VS Code's
YAML extension, Neovim, Helix, Zed), put this first line in a file for
completion and checking as you type:

` + "```yaml\n# yaml-language-server: $schema=./once.schema.json\n```" + `

The schema catches the shape (field names, types, enums, each role's
options); ` + "`once validate`" + ` also checks what a schema cannot: references
between nodes, parameters and links, ranges that depend on a parameter's
type, and the expectations' vacuity declarations.

` + "`once validate`" + ` refuses a claim that holds whatever happens, each in one
line with its ` + "`FILE:LINE:COL`" + ` and exit code 2 (` + "`run -f`" + ` still runs such a
file, for a draft):

- a row with an every-run claim (` + "`=1`, `<=1`, `>=1`, `invariants`" + `) that
  names neither ` + "`unprotected:`" + ` (the setting that breaks it) nor
  ` + "`inherent:`" + ` (one line: why nothing can);
- an ` + "`unprotected:`" + ` that changes nothing: its parameters resolve to the
  row's own values (a parameter's default counts), and the fault kinds it
  turns on have no place to strike (` + "`crash`" + ` where no node is
  ` + "`crash: true`" + `, ` + "`preempt`" + ` with no store node);
- an invariant that reads the responses an HTTP client accepts
  (` + "`one-receipt`, `own-receipt`" + `) in a scenario whose client is not one (a
  queue's broker): it would be reported held every time.

## Fields

A value marked *duration* is a number of milliseconds or a number with
` + "`ms`, `s`, `m` or `h`" + ` (` + "`250ms`, `30s`" + `); a value written ` + "`$NAME`" + ` in a
node's options, a duration or a sweep mark is the parameter NAME.

| field | value | meaning |
|---|---|---|
`)
	walk(&b, "", scenarios.FileFormat().Fields)

	b.WriteString("\n## Fault settings\n\nKeys of `faults:` (the scenario's defaults) and of an expectation row's\n`faults:`. A probability is between 0 and 1; a duration setting is in\nmilliseconds.\n\n| key | value | meaning |\n|---|---|---|\n")
	for _, k := range sim.FaultKinds {
		fmt.Fprintf(&b, "| `%s` | probability | %s |\n", k.Name, k.Help)
		if d := k.Duration; d != nil {
			fmt.Fprintf(&b, "| `%s` | milliseconds, %d–%d (default %d) | %s |\n", d.Name, int64(d.Min), int64(d.Max), int64(d.Default), d.Help)
		}
	}

	b.WriteString("\n## Roles and their options\n\nThe values of `nodes[].role` and the keys of that node's `with:` (also\n`once roles`, `once roles --format json`). A *node* option names another\nnode of the file.\n")
	for _, r := range scenarios.RoleCatalog().All() {
		fmt.Fprintf(&b, "\n### `%s`\n\n%s\n", r.Name, r.Doc)
		if len(r.Options) == 0 {
			b.WriteString("\nNo options.\n")
			continue
		}
		b.WriteString("\n| option | value | default | meaning |\n|---|---|---|---|\n")
		for _, o := range r.Options {
			d := o.Describe()
			kind := d.Kind
			if len(d.Values) > 0 {
				kind = "`" + strings.Join(d.Values, "` \\| `") + "`"
			}
			def := d.Default
			if def != "" {
				def = "`" + def + "`"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", d.Name, kind, def, cell(d.Doc))
		}
	}

	b.WriteString("\n## Invariants and sinks\n\nThe names `invariants:` takes, each a property checked over the whole trace\n(also `once roles`):\n\n| invariant | meaning |\n|---|---|\n")
	for _, inv := range scenarios.RoleCatalog().Invariants() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", inv.Name, cell(inv.Doc))
	}
	var sinks []string
	for _, name := range scenarios.RoleCatalog().Kinds().SinkNames() {
		if name != "" {
			sinks = append(sinks, "`"+name+"`")
		}
	}
	slices.Sort(sinks)
	fmt.Fprintf(&b, "\nThe sinks `observe.sinks` names, where effects are counted (a lab node's\neffect names one as its `dest`): %s.\n", strings.Join(sinks, ", "))

	b.WriteString("\n## Examples, one per topology\n\nComplete files from the catalog (the shortest of each topology), with\ntheir own comments. `custom` is any other composition of roles; see\n`testdata/scenarios/valid/`.\n")
	examples, err := shortestPerTopology(catalog)
	if err != nil {
		return "", err
	}
	for _, e := range examples {
		fmt.Fprintf(&b, "\n### %s: `%s`\n\n```yaml\n%s```\n", e.topology, e.file, e.text)
	}
	return b.String(), nil
}

func walk(b *strings.Builder, prefix string, fields []scenarios.Field) {
	for _, f := range fields {
		p := prefix + f.Name
		what := valueWords(f)
		if f.Required {
			what += ", required"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", p, what, cell(f.Doc))
		switch {
		case f.Shape == "object":
			walk(b, p+".", f.Fields)
		case f.Item != nil && f.Item.Shape == "object":
			walk(b, p+"[].", f.Item.Fields)
		}
	}
}

func valueWords(f scenarios.Field) string {
	switch f.Shape {
	case "object":
		return "mapping"
	case "list":
		if f.Item.Shape == "object" {
			return "list of mappings"
		}
		return "list of " + valueWords(*f.Item)
	case "map":
		return "mapping to " + valueWords(*f.Item)
	}
	if len(f.Enum) > 0 {
		return "one of `" + strings.Join(f.Enum, "`, `") + "`"
	}
	switch f.Value {
	case "text":
		return "text"
	case "word":
		return "name"
	case "int":
		return "integer"
	case "bool":
		return "`true` or `false`"
	case "duration":
		return "duration"
	case "faults":
		return "fault settings (below)"
	case "role-options":
		return "the role's options (below)"
	case "any-map":
		return "mapping of settings"
	case "text-by-semantics":
		return "mapping from semantics to text"
	}
	return "value"
}

// cell makes text safe for one Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

type example struct{ topology, file, text string }

func shortestPerTopology(catalog fs.FS) ([]example, error) {
	names, err := fs.Glob(catalog, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("listing the catalog: %w", err)
	}
	slices.Sort(names)
	best := map[string]example{}
	var order []string
	for _, n := range names {
		data, err := fs.ReadFile(catalog, n)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", n, err)
		}
		text := string(data)
		var topo string
		for _, line := range strings.Split(text, "\n") {
			if t, ok := strings.CutPrefix(line, "topology:"); ok {
				topo = strings.TrimSpace(t)
				break
			}
		}
		if topo == "" {
			return nil, fmt.Errorf("%s: no topology line", n)
		}
		cur, seen := best[topo]
		if !seen {
			order = append(order, topo)
		}
		if !seen || len(text) < len(cur.text) {
			best[topo] = example{topology: topo, file: path.Join("scenarios/catalog", n), text: text}
		}
	}
	topoOrder := scenarios.EnumValues("topology")
	slices.SortFunc(order, func(a, b string) int { return slices.Index(topoOrder, a) - slices.Index(topoOrder, b) })
	var out []example
	for _, t := range order {
		out = append(out, best[t])
	}
	return out, nil
}
