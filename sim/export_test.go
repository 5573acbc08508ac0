package sim

// ExploreCheckpointed is Explore with the stack's checkpoint spacing and
// window set by the test, so a small search replays often.
func ExploreCheckpointed(cfg *Config, opt ExploreOptions, every, window int) (*ExploreResult, error) {
	return explore(cfg, opt, every, window, exploreSplitStates)
}

// ExploreTuned is ExploreCheckpointed with the states at which a search
// is split into parts set by the test too (0: never split), so a small
// search runs as parts.
func ExploreTuned(cfg *Config, opt ExploreOptions, every, window, splitAt int) (*ExploreResult, error) {
	return explore(cfg, opt, every, window, splitAt)
}

// ExploreParts is how many parts a split search has.
const ExploreParts = exploreParts

// ExploreCheckpointEvery and ExploreWindow are the spacing and window
// Explore uses.
const (
	ExploreCheckpointEvery = checkpointEvery
	ExploreWindow          = window
)
