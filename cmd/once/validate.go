package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate FILE…",
		Short: "Check scenario files: the YAML, every name and reference, and a build per semantics",
		Long: `validate loads each scenario file as run -f would: strict YAML (unknown
fields are errors), every role, option, node, link, sink, parameter,
expectation and lesson checked, the scenario built once per semantics
with its defaults, and a vacuous claim refused (docs/scenario-files.md).
It prints "FILE: ok — …" per valid file, or the first error as
FILE:LINE:COL and exits 2. It does not run the scenario: once
matrix -f FILE --check runs its expectations.`,
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
