package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// WriteRunMarkdown writes `once run --format md`: the summary table as
// Markdown, then per semantics a heading with what the user got, whether
// the semantics kept its own promise, and one fenced Mermaid block (the
// diagrams, by index of doc.Results) — one block per semantics, so that
// every Markdown renderer draws each.
func WriteRunMarkdown(w io.Writer, doc RunDoc, summary string, diagrams []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", doc.Scenario, summary)
	fmt.Fprintf(&b, "%s · %s · %s\n\n", doc.SeedWords(), lang.N("count.operations", doc.Ops), strings.Join(FaultParts(doc.Faults, "", false), " · "))
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n", lang.T("column.semantics"), PartyHead(doc.OutcomeWords.Words()), lang.T("column.max_effects"), lang.T("column.faults"), lang.T("guarantee.head"))
	for _, r := range append(append([]RunResult{}, doc.Results...), doc.Headlines...) {
		name := r.Semantics
		if r.Row != "" {
			name = r.Row
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", mdCell(name), mdCell(TranslatedCustomerText(docWords(doc), r.RunOutcome.Counts, r.MaxEffects)), r.MaxEffects, mdCell(faultSummary(r.Faults)),
			mdCell(GuaranteeText(statusNamed(r.Guarantee), r.Promise, r.Finished, r.End)))
	}
	for i, r := range doc.Results {
		fmt.Fprintf(&b, "\n## %s: %s\n\n%s", r.Semantics, TranslatedCustomerText(docWords(doc), r.RunOutcome.Counts, r.MaxEffects), r.Framing)
		if r.Why != "" {
			fmt.Fprintf(&b, " — %s", lang.Reason(r.Reason))
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
		fmt.Fprintf(&b, "\n%s `%s`\n", lang.T("run.replay"), r.Replay)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// docWords are a run document's outcome words.
func docWords(doc RunDoc) scenarios.OutcomeWords {
	return doc.OutcomeWords.Words()
}
