package live

import (
	"fmt"
	"strings"

	"github.com/oncesim/once/scenarios"
)

// faultPrefix marks an entry of a Variant's Params that sets a fault of
// the run rather than a scenario parameter, as the flag would: "--slow":
// "0.1" runs the variant with the scenario's faults and slow 0.1 (the
// scenario's expect rows that change the faults, such as
// ambiguous-external-outcome's late charge).
const faultPrefix = "--"

// settings are the variant's inputs to a run of sc: its semantics, the
// scenario's operations and faults with the variant's fault entries
// applied, and its parameters.
func (v Variant) settings(sc *scenarios.Scenario) (scenarios.Settings, error) {
	set := scenarios.Settings{Semantics: v.Semantics, Ops: sc.Ops, Faults: sc.Faults}
	for k, val := range v.Params {
		name, fault := strings.CutPrefix(k, faultPrefix)
		if !fault {
			if set.Params == nil {
				set.Params = map[string]string{}
			}
			set.Params[k] = val
			continue
		}
		if err := set.Faults.Set(name, val); err != nil {
			return set, fmt.Errorf("%s: %w", v, err)
		}
	}
	return set, nil
}
