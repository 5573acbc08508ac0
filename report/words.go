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

	headSemantics  = "semantics"
	headOutcome    = "outcome for the user"
	headMaxEffects = "max effects"
	headFaults     = "faults"
	headInvariants = "invariants"
	headOwnPromise = "its own promise"

	wordChecks               = "checks:"
	wordChecksExactlyOnce    = "exactly-once (=1 effect per operation) — stricter than %s's own promise (%s)"
	wordChecksExactlyOnceOwn = "exactly-once (=1 effect per operation), %s's own promise"
	wordChecksPromise        = "%s's own promise (%s) and the scenario's invariants"

	// MatrixTextWidth is the most columns the text matrix takes; the
	// Markdown and JSON forms carry every detail (intervals, run counts).
	MatrixTextWidth = 120

	matrixLegend         = "lost, duplicated, broken: share of runs with a lost or a duplicated operation, or a broken invariant\n(95% intervals and run counts: --format md or json)"
	headMatrixRow        = "scenario / row"
	headMatrixLost       = "lost"
	headMatrixDup        = "duplicated"
	headMatrixBroken     = "broken"
	headMatrixUnfinished = "unfinished"
	headMatrixEffects    = "effects/op"
	headMatrixExpected   = "expected"
	// headAsDeclared heads the matrix's self-test: did the runs show what
	// the scenario declares? (Not "held": a row can show 93 % duplicated
	// exactly as declared.)
	headAsDeclared = "as declared"
	wordYes        = "yes"

	wordHeld     = "held"
	wordViolated = "violated"
	wordNone     = "none"
	wordOrMore   = "or more"
	wordMoreIDs  = "… %d more"
	// wordNthEffect follows a repeated effect in a diagram: "— 2nd effect!".
	wordNthEffect = "— %s effect!"
	// wordStepsLeftOut summarises, in a long diagram, the steps of the
	// operations it does not draw.
	headMark         = "mark"
	wordKnee         = "← knee: %s < %s from here, the backlog grows"
	wordBackground   = "no operation (logs, offsets)"
	wordStepsLeftOut = "%d steps of %s left out (--format trace has every step)"
)
