package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
)

// registerCompletion completes, on every command that takes them, the
// SCENARIO argument (catalog names), --semantics, --set keys (the named
// scenario's parameters, or the catalog's), --faults (fault kinds, a comma
// list) and --format (the values its help lists). Cobra's own `once
// completion bash|zsh|fish|powershell` writes the shell scripts.
func registerCompletion(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if strings.Contains(c.Use, "SCENARIO") && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 && !strings.HasPrefix(c.Use, "matrix") {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return runs.ScenarioNames(typed), cobra.ShellCompDirectiveNoFileComp
			}
		}
		complete := func(name string, f func(sc *scenarios.Scenario, typed string) ([]string, cobra.ShellCompDirective)) {
			if c.Flags().Lookup(name) == nil {
				return
			}
			_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
				var sc *scenarios.Scenario
				if len(args) > 0 {
					sc, _ = scenarios.Lookup(args[0])
				}
				return f(sc, typed)
			})
		}
		complete("semantics", func(sc *scenarios.Scenario, _ string) ([]string, cobra.ShellCompDirective) {
			return runs.SemanticsNames(sc), cobra.ShellCompDirectiveNoFileComp
		})
		complete("set", func(sc *scenarios.Scenario, typed string) ([]string, cobra.ShellCompDirective) {
			return runs.SetKeys(sc, typed), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
		})
		complete("faults", func(_ *scenarios.Scenario, typed string) ([]string, cobra.ShellCompDirective) {
			return runs.FaultKindList(typed), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
		})
		if f := c.Flags().Lookup("format"); f != nil {
			if _, values, ok := strings.Cut(f.Usage, ": "); ok {
				values, _, _ = strings.Cut(values, " ")
				_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(strings.Split(values, "|"), cobra.ShellCompDirectiveNoFileComp))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	// Made now, cobra's completion command refuses an unknown shell as
	// an unknown command (exit 2); it printed its help and exited 0.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil {
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
}
