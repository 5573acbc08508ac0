package scenarios

// ExploreFaults is the package-level ExploreFaults for this scenario: the
// fault kinds in list, each offered as a choice, with the scenario's own
// fault durations (pause-ms, late-ms, preempt-ms). The explorer branches
// on whether a pause happens, never on how long it lasts, so a scenario
// whose lesson rests on a pause of 600 ms (or one longer than a TTL)
// must be explored with that pause, not the kind's default.
func (sc *Scenario) ExploreFaults(list string) (Faults, []string, error) {
	f, names, err := ExploreFaults(list)
	f.Duration = sc.Faults.Duration
	return f, names, err
}
