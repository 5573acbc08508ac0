package main

import (
	"io"

	"github.com/oncesim/once/runs"
	"github.com/oncesim/once/scenarios"
)

// renderChecked renders finished runs and, with check, fails with
// errViolation when one broke its promise.
func renderChecked(w io.Writer, format string, check bool, sc *scenarios.Scenario, seed uint64, set scenarios.Settings, rs []runs.Run) error {
	if err := runs.Render(w, format, sc, seed, set, rs, nil); err != nil {
		return err
	}
	if check && !runs.Check(rs) {
		return errViolation
	}
	return nil
}
