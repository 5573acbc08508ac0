package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/runs"
)

// newListCmd is `once list`, and newRolesCmd `once roles`: the catalog and
// the roles, as a table or as JSON.
func newListCmd() *cobra.Command {
	return listing("list", func(format string, out io.Writer) error {
		entries := runs.List(format == "text")
		if format == "json" {
			return report.WriteJSON(out, map[string]any{"schema": "once.list/v1", "scenarios": entries})
		}
		return runs.WriteListText(out, entries)
	})
}

func newRolesCmd() *cobra.Command {
	return listing("roles", func(format string, out io.Writer) error {
		if format == "json" {
			return report.WriteJSON(out, map[string]any{"schema": "once.roles/v1", "roles": runs.Roles(), "invariants": runs.Invariants(), "sinks": runs.Sinks()})
		}
		return runs.WriteRolesText(out, runs.Roles())
	})
}

// listing is a command that prints a listing as text or JSON.
func listing(name string, write func(format string, out io.Writer) error) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:     name,
		Args:    cobra.NoArgs,
		Example: "  once " + name + "\n  once " + name + " --format json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return usageErr("--format %q: want text or json", format)
			}
			return write(format, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text|json")
	return cmd
}
