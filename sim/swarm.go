package sim

import (
	"strings"
)

// Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012; TigerBeetle's
// VOPR draws a fault profile per seed the same way): a batch of random runs
// finds more when each run draws its own configuration of faults than when
// every run shares one, because a fault that is always on can mask
// another (every request lost, no response is ever lost) and a rate tuned
// for the average seed rarely piles faults up. A swarm seed draws, for
// each fault kind, whether it is on and by how much its probability is
// scaled; the run's configuration says which kinds exist at all (a kind at
// probability 0 stays off) and the swarm never adds one. A claim about
// every run of a row quantifies over the schedules its fault kinds allow,
// which a profile does not change, so it must hold under every profile;
// a failure a row shows is still a failure.

// swarmScales are the factors a kind that is on may be scaled by: from a
// quarter to four times the configured probability.
var swarmScales = [...]float64{0.25, 0.5, 1, 2, 4}

// swarmMaxP caps a scaled probability: a kind at 1 would decide every
// choice the same way and hide the others.
const swarmMaxP = 0.9

// SwarmProfile is one seed's fault profile: a factor per choice kind, 0
// for a kind turned off.
type SwarmProfile struct {
	Scale [MaxChoiceKinds]float64
}

// NewSwarmProfile draws seed's profile: each fault kind on or off with
// even odds (never all off), and an on kind's factor among swarmScales. It
// is a pure function of the seed, apart from the run's own decisions (a
// different key), so the profile and the schedule are independent.
func NewSwarmProfile(seed uint64) SwarmProfile {
	var p SwarmProfile
	bits := splitmix(splitmix(seed) ^ 0x5157_4152_4d5f_7072) // "SWARM_pr"
	on := 0
	for k := ChoiceKind(1); k < NumChoiceKinds; k++ {
		if !k.IsFault() {
			continue
		}
		if bits&1 == 1 {
			p.Scale[k] = swarmScales[(bits>>1)%uint64(len(swarmScales))]
			on++
		}
		bits = splitmix(bits)
	}
	if on == 0 { // every kind off would be a fault-free run: keep one
		faults := []ChoiceKind{}
		for k := ChoiceKind(1); k < NumChoiceKinds; k++ {
			if k.IsFault() {
				faults = append(faults, k)
			}
		}
		p.Scale[faults[bits%uint64(len(faults))]] = 1
	}
	return p
}

// Apply returns the probability a choice of kind k configured at prob has
// under the profile.
func (p *SwarmProfile) Apply(k ChoiceKind, prob float64) float64 {
	if prob <= 0 || prob >= 1 || !k.IsFault() {
		return prob
	}
	return min(prob*p.Scale[k], swarmMaxP)
}

// String spells the profile, kind by kind in table order: "loss ×2 ·
// duplicate off · …" (a factor of 1 is "×1").
func (p SwarmProfile) String() string {
	var parts []string
	for k := ChoiceKind(1); k < NumChoiceKinds; k++ {
		if !k.IsFault() {
			continue
		}
		switch s := p.Scale[k]; s {
		case 0:
			parts = append(parts, k.String()+" off")
		case 0.25:
			parts = append(parts, k.String()+" ×¼")
		case 0.5:
			parts = append(parts, k.String()+" ×½")
		default:
			parts = append(parts, k.String()+" ×"+string(rune('0'+int(s))))
		}
	}
	return strings.Join(parts, " · ")
}

// SwarmFaultsUntil is when the faults of a swarm run of cfg stop, unless
// cfg sets its own liveness phase (Config.FaultsUntil): half its time
// budget (or once it has used half its event budget, whichever comes
// first). A profile can starve a run of progress — late ×4 on every hop
// of a transaction that needs several on-time answers in a row finishes
// in hours, not in the budget — and such a run, cut, decides nothing. The
// second half is the liveness phase of TigerBeetle's swarm: no new fault,
// and a run that still does not finish has a liveness bug or a budget too
// small for its work, not a fault rate no run outlives. A schedule whose
// faults stop is one of the schedules a row's fault kinds allow, so every
// claim judged on it is judged soundly.
func SwarmFaultsUntil(cfg *Config) Time {
	limit := DefaultMaxTime
	if cfg.MaxTime > 0 {
		limit = cfg.MaxTime
	}
	return limit / 2
}

// Swarm is the Chooser of a swarm run: Random's keyed answers, with each
// fault choice's probability put through the seed's SwarmProfile. The same
// seed gives the same profile and the same schedule on every machine.
type Swarm struct {
	Random
	Profile SwarmProfile
}

// NewSwarm returns the swarm chooser of seed.
func NewSwarm(seed uint64) *Swarm {
	return &Swarm{Random: Random{seed: splitmix(seed)}, Profile: NewSwarmProfile(seed)}
}

// Choose implements Chooser.
func (s *Swarm) Choose(c Choice) int {
	c.P = s.Profile.Apply(c.Kind, c.P)
	return s.Random.choose(&c)
}
