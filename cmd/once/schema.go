package main

import (
	"github.com/spf13/cobra"

	"github.com/oncesim/once/scenarios/fileschema"
)

func newSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of scenario files, for editors' completion and validation",
		Long: "Prints the JSON Schema (draft 2020-12) of the scenario file format, generated from the\n" +
			"loader's own declarations: every field, each role's options tied to its role:, the fault\n" +
			"settings. docs/scenario-files.md is the same, for reading.",
		Example: "  once schema > once.schema.json\n" +
			"  # then, first line of a scenario file:\n" +
			"  # yaml-language-server: $schema=./once.schema.json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := fileschema.JSON()
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(data)
			return err
		},
	}
}
