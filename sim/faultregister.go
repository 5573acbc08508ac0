package sim

import "strings"

// LinkFaultSpec describes a link fault kind a build (or a test) adds with
// RegisterLinkFault: a message on a covered link is held for Hold before
// it arrives, as slow and late are. Everything else follows from the
// tables: the flag, YAML and plan setting named Name, the explore kind,
// the choice asked on every covered send, the event that records a hit
// (rendered in every view by its class, ClassInFlight, with Name as its
// label), its fault count (Past) and its JSON keys.
type LinkFaultSpec struct {
	Name string // the setting, plan, trace and label name ("stall")
	// JSON is the key of its probability in JSON output; "" means Name
	// with '-' as '_'.
	JSON string
	// Past is its word in fault counts ("2 stalled"); the locale files
	// may translate it as fault.<Past>.
	Past  string
	Help  string // what its probability means (flag help)
	Links Links  // Requests, Responses or AllLinks
	Hold  Time   // how long a message it hits is held, in ticks (> 0)
	// ExploreDefault: explore enumerates the kind unless told otherwise.
	ExploreDefault bool
}

// RegisterLinkFault adds a link fault kind to the fault table, with its
// engine choice kind and the event kind that records it, and returns it.
// It must run before any world or any surface reads the tables (from a
// package-level variable or an init function, as a test build does); a
// nameless or taken name, a kind that is not on a message link, a hold
// of 0, or one kind too many panics.
func RegisterLinkFault(spec LinkFaultSpec) FaultKind {
	switch {
	case spec.Name == "" || spec.Past == "":
		panic("sim: RegisterLinkFault needs a name and a past participle")
	case spec.Links != Requests && spec.Links != Responses && spec.Links != AllLinks:
		panic("sim: RegisterLinkFault: " + spec.Name + " must be on request, response or all links")
	case spec.Hold <= 0:
		panic("sim: RegisterLinkFault: " + spec.Name + " needs a hold")
	case IsFaultSetting(spec.Name):
		panic("sim: fault kind " + spec.Name + " registered twice")
	case len(FaultKinds) >= MaxFaultKinds || len(choiceKinds) >= MaxChoiceKinds:
		panic("sim: too many fault kinds for " + spec.Name)
	}
	if _, ok := ParseChoiceKind(spec.Name); ok {
		panic("sim: choice kind " + spec.Name + " registered twice")
	}
	if spec.JSON == "" {
		spec.JSON = strings.ReplaceAll(spec.Name, "-", "_")
	}
	choice := ChoiceKind(len(choiceKinds))
	choiceKinds = append(choiceKinds, choiceKindSpec{name: spec.Name, past: spec.Past, fault: true, link: LinkHold})
	NumChoiceKinds = ChoiceKind(len(choiceKinds))
	RegisterEventKind(EventKindSpec{Name: spec.Name, Fault: choice, Class: ClassInFlight})
	FaultKinds = append(FaultKinds, FaultKindSpec{Name: spec.Name, JSON: spec.JSON, Choice: choice, Links: spec.Links,
		Help: spec.Help, ExploreDefault: spec.ExploreDefault, Hold: spec.Hold})
	NumFaultKinds = FaultKind(len(FaultKinds))
	linkKinds = linkKindList()
	holdEvents = holdEventTable()
	AllFaultKinds = allFaultKinds()
	return NumFaultKinds - 1
}
