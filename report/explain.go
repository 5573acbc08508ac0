package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// ExplainDoc is the lesson of one scenario as `once explain` renders it:
// the story, what to watch for, why each semantics gives what it gives
// (with what the scenario declares it must show), the fix, and the
// commands that show it.
type ExplainDoc struct {
	Scenario  string
	Summary   string
	Topology  string
	Ops       int
	Faults    scenarios.Faults
	Story     string
	Watch     string
	Semantics []ExplainSemantics
	Fix       string
	Params    []ExplainParam
	Try       []string
	// Follows names the version of the real system the model follows;
	// Source cites what it follows, in one line; Scaled lists the values
	// scaled down from the real defaults.
	Follows string
	Source  string
	Scaled  []ExplainScaled
}

// ExplainScaled is one row of the scaled-values table: a setting, its
// value here, the real default, and why it is scaled.
type ExplainScaled struct {
	Name, Here, Real, Why string
}

// ExplainSemantics is one semantics' part of the lesson.
type ExplainSemantics struct {
	Name    string // at-least-once
	Alias   string // alo
	Promise string // ≥1
	Why     string
	Expect  []ExplainExpect
}

// ExplainExpect is one declared expectation row: under which variant
// (parameters, faults), what must show.
type ExplainExpect struct {
	Variant string // "" for the scenario's defaults, else "store=memory crash=0.2"
	Claims  string // "=1", "≥1 dup"
	Note    string
}

// ExplainParam is one parameter the lesson can be varied with.
type ExplainParam struct {
	Name, Values, Default, Doc string
}

// claimWords names the message that spells out a claim for a student.
var claimWords = map[string]string{
	"=1":                               "claim.exactly_one",
	"≤1":                               "claim.at_most_one",
	"≥1":                               "claim.at_least_one",
	scenarios.ClaimDuplicates.String(): "claim.dup",
	"lost":                             "claim.lost",
	"refused":                          "claim.refused",
	"never-completes":                  "claim.never-completes",
	"invariants":                       "claim.invariants",
	"violation":                        "claim.violation",
}

// claimShortID prefixes the short words of a claim.
const claimShortID = "claim.short."

// ClaimsShort is claims as the expect rows write them ("≥1 dup"), with
// the words translated in Romanian and Russian ("≥1 дубликат"); the
// bounds (≤1, =1, ≥1) stay. In Romanian and Russian two claims side by
// side are parted by a comma ("≤1 потеря, инварианты"): without it the
// nouns would read as one phrase in the genitive ("потеря инварианты");
// a bound keeps the claim after it ("≤1 потеря").
func ClaimsShort(claims string) string {
	if lang.Current() == lang.English {
		return claims
	}
	isBound := func(c string) bool { return strings.ContainsAny(c, "=≤≥") }
	f := strings.Fields(claims)
	var b strings.Builder
	for i, c := range f {
		if i > 0 {
			if isBound(f[i-1]) && !isBound(c) {
				b.WriteString(" ")
			} else {
				b.WriteString(", ")
			}
		}
		if _, ok := claimWords[c]; ok && !isBound(c) {
			c = lang.T(claimShortID + c)
		}
		b.WriteString(c)
	}
	return b.String()
}

// ClaimsInWords renders claims ("≥1 dup") as a sentence.
func ClaimsInWords(claims string) string {
	var parts []string
	for _, c := range strings.Fields(claims) {
		if w, ok := claimWords[c]; ok {
			parts = append(parts, lang.T(w))
		} else {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "; ")
}

func faultLine(f scenarios.Faults) string { return strings.Join(FaultParts(f, "", false), " · ") }

// indent prefixes every non-empty line of s.
func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

// WriteExplainText writes the lesson for a terminal: headed sections,
// the text indented as written in the scenario file.
func WriteExplainText(w io.Writer, d ExplainDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s\n", styleTitle.Render(d.Scenario), d.Summary)
	fmt.Fprintf(&b, "%s\n", styleDim.Render(fmt.Sprintf("%s · %s · %s", d.Topology, lang.N("count.operations", d.Ops), faultLine(d.Faults))))
	section := func(title, body string) {
		if body == "" {
			return
		}
		fmt.Fprintf(&b, "\n%s\n%s\n", styleTitle.Render(title), indent(body, "  "))
	}
	section(lang.T("explain.story"), d.Story)
	section(lang.T("explain.watch"), d.Watch)
	if len(d.Semantics) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render(lang.T("explain.why")))
		for i, s := range d.Semantics {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "  %s %s\n", styleTitle.Render(s.Name), styleDim.Render("("+s.Alias+", "+lang.T("explain.promise")+" "+s.Promise+")"))
			if s.Why != "" {
				fmt.Fprintf(&b, "%s\n", indent(s.Why, "    "))
			}
			for _, e := range s.Expect {
				label := lang.T("explain.shows") + ":"
				if e.Variant != "" {
					label = lang.Tf("explain.with", map[string]any{"Variant": e.Variant}) + ":"
				}
				line := fmt.Sprintf("%s %s — %s", label, ClaimsShort(e.Claims), ClaimsInWords(e.Claims))
				if e.Note != "" {
					line += " (" + e.Note + ")"
				}
				fmt.Fprintf(&b, "    %s %s\n", styleGood.Render("→"), line)
			}
		}
	}
	section(lang.T("explain.fix"), d.Fix)
	if len(d.Params) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render(lang.T("explain.params")))
		wName, wVals := 0, 0
		for _, p := range d.Params {
			wName, wVals = max(wName, len(p.Name)), max(wVals, len(p.Values))
		}
		for _, p := range d.Params {
			fmt.Fprintf(&b, "  %-*s  %-*s  %s %s", wName, p.Name, wVals, p.Values, lang.T("explain.default"), p.Default)
			if p.Doc != "" {
				fmt.Fprintf(&b, " — %s", p.Doc)
			}
			b.WriteString("\n")
		}
	}
	writeScaledText(&b, d.Scaled)
	section(lang.T("explain.follows"), d.Follows)
	section(lang.T("explain.source"), d.Source)
	if len(d.Try) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render(lang.T("explain.see")))
		for _, t := range d.Try {
			fmt.Fprintf(&b, "  %s %s\n", styleDim.Render("$"), t)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteExplainMarkdown writes the lesson as a Markdown page.
func WriteExplainMarkdown(w io.Writer, d ExplainDoc) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", d.Scenario, d.Summary)
	fmt.Fprintf(&b, "*%s · %s · %s*\n", d.Topology, lang.N("count.operations", d.Ops), faultLine(d.Faults))
	section := func(title, body string) {
		if body != "" {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, body)
		}
	}
	section(lang.T("explain.story"), d.Story)
	section(lang.T("explain.watch"), d.Watch)
	if len(d.Semantics) > 0 {
		b.WriteString("\n## " + lang.T("explain.why") + "\n")
		for _, s := range d.Semantics {
			fmt.Fprintf(&b, "\n### %s (`%s`, %s %s)\n\n", s.Name, s.Alias, lang.T("explain.promise"), s.Promise)
			if s.Why != "" {
				fmt.Fprintf(&b, "%s\n\n", s.Why)
			}
			for _, e := range s.Expect {
				label := lang.T("explain.shows_md")
				if e.Variant != "" {
					label = lang.Tf("explain.with_md", map[string]any{"Variant": "`" + e.Variant + "`"})
				}
				fmt.Fprintf(&b, "- %s: **%s** — %s", label, ClaimsShort(e.Claims), ClaimsInWords(e.Claims))
				if e.Note != "" {
					fmt.Fprintf(&b, " (%s)", e.Note)
				}
				b.WriteString("\n")
			}
		}
	}
	section(lang.T("explain.fix"), d.Fix)
	if len(d.Params) > 0 {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n%s\n|---|---|---|---|\n", lang.T("explain.params_heading"), lang.T("explain.params_set"), lang.T("explain.params_columns"))
		for _, p := range d.Params {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", p.Name, mdCell(p.Values), p.Default, mdCell(p.Doc))
		}
	}
	if len(d.Scaled) > 0 {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n|---|---|---|---|\n", lang.T("explain.scaled"), lang.T("explain.scaled_columns"))
		for _, r := range d.Scaled {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(r.Name), mdCell(r.Here), mdCell(r.Real), mdCell(r.Why))
		}
	}
	section(lang.T("explain.follows"), d.Follows)
	section(lang.T("explain.source"), d.Source)
	if len(d.Try) > 0 {
		fmt.Fprintf(&b, "\n## %s\n\n```sh\n%s\n```\n", lang.T("explain.see"), strings.Join(d.Try, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeScaledText writes the scaled-values table for a terminal: one row
// per value, the setting, here → real, then why.
func writeScaledText(b *strings.Builder, rows []ExplainScaled) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", styleTitle.Render(lang.T("explain.scaled")))
	wName, wHere := 0, 0
	for _, r := range rows {
		wName, wHere = max(wName, len([]rune(r.Name))), max(wHere, len([]rune(r.Here)))
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %s  %s  → %s — %s\n", padRight(r.Name, wName), padRight(r.Here, wHere), r.Real, r.Why)
	}
}

// padRight pads s with spaces to width runes.
func padRight(s string, width int) string {
	if n := len([]rune(s)); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}
