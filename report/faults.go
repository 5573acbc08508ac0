package report

import (
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// FaultParts lists a fault profile as "name value" parts in the order of
// sim.FaultKinds ("loss 0.1", "ack-loss 0.3", "pause 0.2 for 5s" — in
// Romanian "pause 0.2 timp de 5 s"; the values stay as the flags take
// them). A kind that lasts says for how long when its probability is not
// zero. skip names a setting to leave out (the swept one); nonZero leaves
// out every kind whose probability is zero.
func FaultParts(f scenarios.Faults, skip string, nonZero bool) []string {
	return FaultPartsIn(nil, f, skip, nonZero)
}

// FaultPartsIn is FaultParts over kinds' fault kinds (nil: the built-in
// ones).
func FaultPartsIn(kinds *sim.Registry, f scenarios.Faults, skip string, nonZero bool) []string {
	var parts []string
	for k, s := range kinds.FaultKinds() {
		p := f.Probability[k]
		if s.Name == skip || (nonZero && p == 0) {
			continue
		}
		part := s.Name + " " + ffmt(p)
		if s.Duration != nil && p > 0 && s.Duration.Name != skip {
			part = lang.Tf("outcomefmt.lasting", map[string]any{"Part": part, "Duration": lang.Duration(kinds.DurationOf(&f, sim.FaultKind(k)).String())})
		}
		parts = append(parts, part)
	}
	return parts
}

// FaultCount puts a count of faults and their word together as the
// current language reads them: "2 lost" in English, "pierdute: 2" in
// Romanian (a bare number before a participle would not agree).
func FaultCount(n int, word string) string {
	return lang.Tf("outcomefmt.faults", map[string]any{"Count": n, "Words": word})
}

// FaultCountParts lists the faults that hit a run, by choice kind, in
// the order of the table ("2 lost", "1 paused"); kinds that did not happen
// are left out.
func FaultCountParts(f sim.FaultCounts) []string { return FaultCountPartsIn(nil, f) }

// FaultCountParts lists the faults that hit a run of kinds' world (nil:
// the built-in kinds), by choice kind, as FaultCountParts does.
func FaultCountPartsIn(kinds *sim.Registry, f sim.FaultCounts) []string {
	var parts []string
	for _, k := range kinds.FaultChoiceKinds() {
		if n := f.Of(k); n > 0 {
			parts = append(parts, FaultCount(n, lang.Word("fault", kinds.Past(k))))
		}
	}
	return parts
}
