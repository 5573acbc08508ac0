package main

import (
	"github.com/spf13/cobra"

	"github.com/oncesim/once/scenarios/fileschema"
)

func newSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use: "schema",
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
