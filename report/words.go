package report

// The generic English words of the reports, gathered in one place so that
// a translation can route them through lookups. Scenario-specific words
// (what an effect means: "charged twice") come from the catalog, under
// observe.outcome.
const (
	// WordOutcomeNone, WordOutcomeOnce and WordOutcomeMany name an
	// operation's effect count when the scenario gives no words of its own.
	WordOutcomeNone = "no effect"
	WordOutcomeOnce = "exactly one effect"
	WordOutcomeMany = "more than one effect"

	// MarkGood and MarkBad follow an outcome: once is what the user
	// wanted, none or many is not — whatever the semantics promised.
	MarkGood = "✓"
	MarkBad  = "✗"

	// WordKept, WordBroken and WordUnknown say whether a semantics kept
	// its own promise (≤1, ≥1, =1): a different question from whether the
	// user got what they wanted.
	WordKept    = "kept"
	WordBroken  = "broken"
	WordUnknown = "unknown"

	// WordPromise follows a semantics' name: "at-least-once promise".
	WordPromise = "promise"

	wordChecksExactlyOnce    = "exactly-once (=1 effect per operation) — stricter than %s's own promise (%s)"
	wordChecksExactlyOnceOwn = "exactly-once (=1 effect per operation), %s's own promise"
	wordChecksPromise        = "%s's own promise (%s) and the scenario's invariants"

	// MatrixTextWidth is the most columns the text matrix takes; the
	// Markdown and JSON forms carry every detail (intervals, run counts).
	MatrixTextWidth = 120

	wordHeld     = "held"
	wordViolated = "violated"
	wordNone     = "none"
	wordOrMore   = "or more"

	// The matrix's, sweep's, explore's and the diagrams' words are
	// messages of report/lang (locales/reports.*.toml), in every language.
)
