package runs

import (
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// Chooser is the chooser of a seeded run: NewRandom(seed), or with swarm
// NewSwarm(seed), whose fault profile the seed draws (once matrix --swarm,
// and once run --swarm that replays one of its seeds).
func Chooser(seed uint64, swarm bool) sim.Chooser {
	if swarm {
		return sim.NewSwarm(seed)
	}
	return sim.NewRandom(seed)
}

// SwarmFlag is the flag a command line that reproduces a run adds for a
// swarm run: " --swarm", or nothing.
func SwarmFlag(swarm bool) string {
	if swarm {
		return " --swarm"
	}
	return ""
}

// SwarmLine names the fault profile seed draws in a swarm, in the reader's
// language.
func SwarmLine(seed uint64) string {
	return lang.Tf("run.swarm_profile", map[string]any{"Seed": seed, "Profile": sim.NewSwarmProfile(seed).String()})
}
