package main

import (
	"github.com/spf13/cobra"

	"github.com/oncesim/once/scenarios"
)

// scenarioFlag is the -f FILE flag every command that takes a scenario
// shares: a scenario file (YAML) stands in for the SCENARIO argument.
type scenarioFlag struct {
	file   string
	merged []*scenarios.Scenario // set by merge: the -f file a shard carries, loaded
}

func (s *scenarioFlag) registerFile(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&s.file, "file", "f", "", "a scenario file (YAML) instead of a catalog SCENARIO name")
}

// scenarioArgs validates the positional arguments of a one-scenario
// command: exactly one name, or none with -f.
func (s *scenarioFlag) scenarioArgs(_ *cobra.Command, args []string) error {
	switch {
	case s.file != "" && len(args) > 0:
		return usageErr("give a SCENARIO name or -f %s, not both", s.file)
	case s.file != "" || len(s.merged) > 0:
		return nil
	case len(args) != 1:
		return usageErr("want one SCENARIO argument, got %d (see: once list)", len(args))
	}
	return nil
}

// scenario resolves the command's scenario: the -f file, or the catalog
// entry called args[0]. Every failure is a usage error.
func (s *scenarioFlag) scenario(args []string) (*scenarios.Scenario, error) {
	if len(s.merged) > 0 {
		return s.merged[0], nil
	}
	if s.file != "" {
		return loadScenarioFile(s.file)
	}
	if len(args) == 0 {
		return nil, usageErr("want one SCENARIO argument or -f FILE (see: once list)")
	}
	sc, err := scenarios.Lookup(args[0])
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return sc, nil
}

// loadScenarioFile reads and validates a scenario file; every failure is
// a usage error naming the file.
func loadScenarioFile(file string) (*scenarios.Scenario, error) {
	sc, err := scenarios.LoadFile(file)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return sc, nil
}
