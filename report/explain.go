package report

import (
	"fmt"
	"io"
	"strings"

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

// claimWords spells out a claim for a student.
var claimWords = map[string]string{
	"=1":                               "every operation has exactly one effect",
	"≤1":                               "no operation has two effects",
	"≥1":                               "no operation is lost",
	scenarios.ClaimDuplicates.String(): "some run duplicates an operation's effect",
	"lost":                             "some run loses an operation",
	"invariants":                       "every invariant holds",
	"violation":                        "some run violates an invariant",
}

// ClaimsInWords renders claims ("≥1 dup") as a sentence.
func ClaimsInWords(claims string) string {
	var parts []string
	for _, c := range strings.Fields(claims) {
		if w, ok := claimWords[c]; ok {
			parts = append(parts, w)
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
	fmt.Fprintf(&b, "%s\n", styleDim.Render(fmt.Sprintf("%s · %s · %s", d.Topology, plural(d.Ops, "operation"), faultLine(d.Faults))))
	section := func(title, body string) {
		if body == "" {
			return
		}
		fmt.Fprintf(&b, "\n%s\n%s\n", styleTitle.Render(title), indent(body, "  "))
	}
	section("The story", d.Story)
	section("What to watch", d.Watch)
	if len(d.Semantics) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render("Why each semantics gives what it gives"))
		for i, s := range d.Semantics {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "  %s %s\n", styleTitle.Render(s.Name), styleDim.Render("("+s.Alias+", promise "+s.Promise+")"))
			if s.Why != "" {
				fmt.Fprintf(&b, "%s\n", indent(s.Why, "    "))
			}
			for _, e := range s.Expect {
				label := "shows:"
				if e.Variant != "" {
					label = "with " + e.Variant + ":"
				}
				line := fmt.Sprintf("%s %s — %s", label, e.Claims, ClaimsInWords(e.Claims))
				if e.Note != "" {
					line += " (" + e.Note + ")"
				}
				fmt.Fprintf(&b, "    %s %s\n", styleGood.Render("→"), line)
			}
		}
	}
	section("The fix", d.Fix)
	if len(d.Params) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render("Parameters (--set name=value)"))
		wName, wVals := 0, 0
		for _, p := range d.Params {
			wName, wVals = max(wName, len(p.Name)), max(wVals, len(p.Values))
		}
		for _, p := range d.Params {
			fmt.Fprintf(&b, "  %-*s  %-*s  default %s", wName, p.Name, wVals, p.Values, p.Default)
			if p.Doc != "" {
				fmt.Fprintf(&b, " — %s", p.Doc)
			}
			b.WriteString("\n")
		}
	}
	if len(d.Try) > 0 {
		fmt.Fprintf(&b, "\n%s\n", styleTitle.Render("See it"))
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
	fmt.Fprintf(&b, "*%s · %s · %s*\n", d.Topology, plural(d.Ops, "operation"), faultLine(d.Faults))
	section := func(title, body string) {
		if body != "" {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, body)
		}
	}
	section("The story", d.Story)
	section("What to watch", d.Watch)
	if len(d.Semantics) > 0 {
		b.WriteString("\n## Why each semantics gives what it gives\n")
		for _, s := range d.Semantics {
			fmt.Fprintf(&b, "\n### %s (`%s`, promise %s)\n\n", s.Name, s.Alias, s.Promise)
			if s.Why != "" {
				fmt.Fprintf(&b, "%s\n\n", s.Why)
			}
			for _, e := range s.Expect {
				label := "Shows"
				if e.Variant != "" {
					label = "With `" + e.Variant + "`"
				}
				fmt.Fprintf(&b, "- %s: **%s** — %s", label, e.Claims, ClaimsInWords(e.Claims))
				if e.Note != "" {
					fmt.Fprintf(&b, " (%s)", e.Note)
				}
				b.WriteString("\n")
			}
		}
	}
	section("The fix", d.Fix)
	if len(d.Params) > 0 {
		b.WriteString("\n## Parameters\n\nSet with `--set name=value`.\n\n| name | values | default | meaning |\n|---|---|---|---|\n")
		for _, p := range d.Params {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", p.Name, mdCell(p.Values), p.Default, mdCell(p.Doc))
		}
	}
	if len(d.Try) > 0 {
		fmt.Fprintf(&b, "\n## See it\n\n```sh\n%s\n```\n", strings.Join(d.Try, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
