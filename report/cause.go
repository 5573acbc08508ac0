package report

import (
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/sim"
)

// TranslatedCause is Cause in the current language, the reason given as data:
// in English it is exactly Cause(topo, why.String(), faults).
func TranslatedCause(topo *sim.Topology, why sim.Reason, faults []sim.Fault) string {
	if lang.Current() == lang.English {
		return Cause(topo, why.String(), faults)
	}
	if len(faults) == 0 {
		return lang.Reason(why) + " — " + lang.T("cause.no_fault")
	}
	parts := make([]string, len(faults))
	for i, f := range faults {
		parts[i] = TranslatedFault(topo, f)
	}
	return lang.Reason(why) + " — " + strings.Join(parts, lang.T("cause.then"))
}

// faultIDs is the message that tells what each kind of fault did.
var faultIDs = map[sim.ChoiceKind]string{
	sim.ChoiceCrash:     "cause.crash",
	sim.ChoicePause:     "cause.pause",
	sim.ChoiceLoss:      "cause.loss",
	sim.ChoiceDuplicate: "cause.duplicate",
	sim.ChoicePreempt:   "cause.preempt",
	sim.ChoiceSlow:      "cause.slow",
	sim.ChoiceLate:      "cause.late",
}

// TranslatedFault is DescribeFault in the current language.
func TranslatedFault(topo *sim.Topology, f sim.Fault) string {
	id, ok := faultIDs[f.Kind]
	if lang.Current() == lang.English || !ok {
		return DescribeFault(topo, f)
	}
	data := map[string]any{
		"Node": topo.NodeName(f.Node), "Peer": topo.NodeName(f.Peer), "Msg": topo.MessageName(f.Msg),
		"Op": f.Op.String(), "Attempt": f.Attempt,
	}
	if f.Kind == sim.ChoiceCrash || f.Kind == sim.ChoicePause {
		data["Point"] = topo.PointName(f.Point)
	}
	s := lang.Tf(id, data)
	if (f.Kind == sim.ChoiceCrash || f.Kind == sim.ChoicePause) && f.Op != 0 {
		s += lang.Tf("cause.handling", data)
	}
	return s
}
