package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/scenarios/roles"
)

type rolesOptions struct {
	format string
}

func newRolesCmd() *cobra.Command {
	o := &rolesOptions{}
	cmd := &cobra.Command{
		Use:     "roles",
		Short:   "List the roles a scenario file can use, with their options",
		Args:    cobra.NoArgs,
		Example: "  once roles\n  once roles --format json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRoles(o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text|json")
	return cmd
}

type roleOptionDoc struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Default string   `json:"default,omitempty"`
	Values  []string `json:"values,omitempty"`
	Doc     string   `json:"doc"`
}

type roleDoc struct {
	Name    string          `json:"name"`
	Doc     string          `json:"doc"`
	Options []roleOptionDoc `json:"options"`
}

func runRoles(o *rolesOptions, out io.Writer) error {
	var docs []roleDoc
	for _, r := range roles.All() {
		d := roleDoc{Name: r.Name, Doc: r.Doc, Options: []roleOptionDoc{}}
		for _, o := range r.Options {
			opt := o.Describe()
			d.Options = append(d.Options, roleOptionDoc{Name: opt.Name, Kind: opt.Kind, Default: opt.Default, Values: opt.Values, Doc: opt.Doc})
		}
		docs = append(docs, d)
	}
	switch o.format {
	case "json":
		return report.WriteJSON(out, map[string]any{"schema": "once.roles/v1", "roles": docs})
	case "text":
		var b strings.Builder
		for i, d := range docs {
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
		_, err := io.WriteString(out, b.String())
		return err
	}
	return usageErr("--format %q: want text or json", o.format)
}
