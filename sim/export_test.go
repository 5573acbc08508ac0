package sim

// ExploreCheckpointed is Explore with the stack's checkpoint spacing and
// window set by the test, so a small search replays often.
func ExploreCheckpointed(cfg *Config, opt ExploreOptions, every, window int) (*ExploreResult, error) {
	return explore(cfg, opt, every, window)
}

// ExploreCheckpointEvery and ExploreWindow are the spacing and window
// Explore uses.
const (
	ExploreCheckpointEvery = checkpointEvery
	ExploreWindow          = window
)
