package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

type listOptions struct {
	format string
}

func newListCmd() *cobra.Command {
	o := &listOptions{}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the scenario catalog",
		Args:    cobra.NoArgs,
		Example: "  once list\n  once list --format json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runList(o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text|json")
	return cmd
}

type listEntry struct {
	Name      string   `json:"name"`
	Topology  string   `json:"topology"`
	Semantics []string `json:"semantics"`
	Summary   string   `json:"summary"`
}

func runList(o *listOptions, out io.Writer) error {
	var entries []listEntry
	for _, s := range scenarios.All() {
		e := listEntry{Name: s.Name, Topology: s.Topology, Summary: s.Summary}
		if o.format == "text" { // JSON stays English: it is a contract
			e.Summary = lessonText(s, "summary", s.Summary)
		}
		for _, sem := range s.Semantics {
			e.Semantics = append(e.Semantics, sem.Alias())
		}
		entries = append(entries, e)
	}
	switch o.format {
	case "json":
		return report.WriteJSON(out, map[string]any{"schema": "once.list/v1", "scenarios": entries})
	case "text":
		rows := [][]string{{lang.T("list.scenario"), lang.T("list.topology"), lang.T("list.semantics"), lang.T("list.summary")}}
		for _, e := range entries {
			rows = append(rows, []string{e.Name, e.Topology, strings.Join(e.Semantics, ","), e.Summary})
		}
		_, err := io.WriteString(out, report.Columns(rows))
		return err
	}
	return usageErr("--format %q: want text or json", o.format)
}
