package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use: "validate FILE…",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("want at least one scenario FILE argument")
			}
			return nil
		},
		Example: `  once validate my-scenario.yaml
  once validate scenarios/*.yaml && once matrix -f my-scenario.yaml --check`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runValidate(args, cmd.OutOrStdout())
		},
	}
	return cmd
}

// runValidate checks each file in order and stops at the first invalid one.
func runValidate(files []string, stdout io.Writer) error {
	for _, f := range files {
		sc, err := loadScenarioFile(f)
		if err == nil {
			err = sc.CheckVacuity()
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: ok — scenario %s (%s)\n", f, sc.Name, sc.Shape())
	}
	return nil
}
