package report

import (
	"fmt"
	"io"
	"strings"
)

// WriteRunMarkdown writes `once run --format md`: the summary table as
// Markdown, then per semantics a heading with what the user got, whether
// the semantics kept its own promise, and one fenced Mermaid block (the
// diagrams, by index of doc.Results) — one block per semantics, so that
// every Markdown renderer draws each.
func WriteRunMarkdown(w io.Writer, doc RunDoc, summary string, diagrams []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", doc.Scenario, summary)
	fmt.Fprintf(&b, "seed %d · %d operations · %s\n\n", doc.Seed, doc.Ops, strings.Join(FaultParts(doc.Faults, "", false), " · "))
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n", headSemantics, headOutcome, headMaxEffects, headFaults, headOwnPromise)
	for _, r := range append(append([]RunResult{}, doc.Results...), doc.Headlines...) {
		name := r.Semantics
		if r.Row != "" {
			name = r.Row
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", mdCell(name), mdCell(r.Outcome), r.MaxEffects, mdCell(faultSummary(r.Faults)), mdCell(PromiseWord(r.Status, r.Promise)))
	}
	for i, r := range doc.Results {
		fmt.Fprintf(&b, "\n## %s: %s\n\n%s %s: %s", r.Semantics, r.Outcome, r.Semantics, WordPromise, PromiseWord(r.Status, r.Promise))
		if r.Why != "" {
			fmt.Fprintf(&b, " — %s", r.Why)
		}
		b.WriteString("\n")
		for _, m := range r.Metrics {
			fmt.Fprintf(&b, "\n%s", MetricText(m))
		}
		if len(r.Metrics) > 0 {
			b.WriteString("\n")
		}
		if i < len(diagrams) {
			fmt.Fprintf(&b, "\n```mermaid\n%s```\n", diagrams[i])
		}
		fmt.Fprintf(&b, "\nreplay: `%s`\n", r.Replay)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
