package lessonview

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
	"github.com/oncesim/once/scenarios/lesson"
	"github.com/oncesim/once/sim"
)

// MermaidScript is where the pack's HTML pages load mermaid.js from to
// draw their sequence diagrams (Markdown viewers such as GitHub's draw
// the Markdown pages' Mermaid blocks themselves).
const MermaidScript = "https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.min.js"

// A PackFile is one file of the lesson pack: its path relative to the
// pack's root (slash-separated) and its contents.
type PackFile struct {
	Path string
	Data []byte
}

// Matrix returns the Markdown excerpt of `once matrix` for a scenario.
type Matrix func(scenario string) (string, error)

// Pack renders the lesson pack of the given steps: index.md, one page per
// step (NN-id.md), the HTML twin of every page, and the space-time
// diagrams the pages show (NN-id.RUN.svg). matrix supplies each
// scenario's matrix excerpt.
func Pack(views []*StepView, matrix Matrix) ([]PackFile, error) {
	var files []PackFile
	add := func(path string, data []byte) { files = append(files, PackFile{Path: path, Data: data}) }
	var index strings.Builder
	fmt.Fprintf(&index, "# %s\n\n%s\n\n", lang.T("lesson.index_title"), lang.T("lesson.index_intro"))
	for i, v := range views {
		name := PageName(v)
		fmt.Fprintf(&index, "%d. [%s](%s.md) ([HTML](%s.html))\n", v.Number, v.Title, name, name)
		var prev, next string
		if i > 0 {
			prev = PageName(views[i-1])
		}
		if i+1 < len(views) {
			next = PageName(views[i+1])
		}
		page, svgs, err := stepPage(v, prev, next, matrix)
		if err != nil {
			return nil, err
		}
		for _, s := range svgs {
			add(s.Path, s.Data)
		}
		add(name+".md", []byte(page))
		h, err := htmlTwin(v.Title, page)
		if err != nil {
			return nil, err
		}
		add(name+".html", h)
	}
	add("index.md", []byte(index.String()))
	h, err := htmlTwin(lang.T("lesson.index_title"), index.String())
	if err != nil {
		return nil, err
	}
	add("index.html", h)
	return files, nil
}

// PageName is the file name of a step's page, without extension.
func PageName(v *StepView) string { return fmt.Sprintf("%02d-%s", v.Number, v.ID) }

// stepPage writes one step's Markdown page and the SVG files it links.
func stepPage(v *StepView, prev, next string, matrix Matrix) (string, []PackFile, error) {
	var b strings.Builder
	name := PageName(v)
	fmt.Fprintf(&b, "# %s · %s\n\n", lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total}), v.Title)
	nav := []string{fmt.Sprintf("[%s](index.md)", lang.T("lesson.back"))}
	if prev != "" {
		nav = append(nav, fmt.Sprintf("[%s](%s.md)", lang.T("lesson.prev"), prev))
	}
	if next != "" {
		nav = append(nav, fmt.Sprintf("[%s](%s.md)", lang.T("lesson.next_page"), next))
	}
	fmt.Fprintf(&b, "%s\n\n## %s\n\n", strings.Join(nav, " · "), lang.T("lesson.story"))
	for _, s := range v.Stories {
		fmt.Fprintf(&b, "### `%s` — %s\n\n%s\n\n**%s.** %s\n\n", s.Scenario, s.Summary, s.Story, lang.T("lesson.watch"), oneLine(s.Watch))
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.questions"))
	for j, q := range v.Questions {
		fmt.Fprintf(&b, "%d. %s\n", j+1, q.Text)
		for k, ch := range q.Choices {
			fmt.Fprintf(&b, "   - %c) %s\n", 'a'+k, ch)
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n```sh\n", lang.T("lesson.commands"))
	for _, r := range v.Runs {
		fmt.Fprintf(&b, "%s\n", r.Command)
		fmt.Fprintf(&b, "%s --format trace\n", r.Command)
	}
	b.WriteString("```\n\n")
	var svgs []PackFile
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.diagrams"))
	for _, r := range v.Runs {
		res := v.Results[r.ID]
		file := name + "." + r.ID + ".svg"
		data, err := runSVG(res)
		if err != nil {
			return "", nil, err
		}
		svgs = append(svgs, PackFile{Path: file, Data: data})
		fmt.Fprintf(&b, "`%s`\n\n", r.Command)
		for _, l := range r.Lines {
			fmt.Fprintf(&b, "- %s\n", l)
		}
		fmt.Fprintf(&b, "\n![%s](%s)\n\n", r.Command, file)
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.sequence"))
	for _, r := range v.Runs {
		res := v.Results[r.ID]
		for _, sr := range res.Runs {
			fmt.Fprintf(&b, "### %s — `%s`\n\n```mermaid\n", sr.Outcome.Semantics, r.Command)
			if err := report.WriteMermaidOutcome(&b, sr.Config.Topology, sr.Trace.Events, focusOps(sr.Outcome), report.FramingLine(sr.Outcome, res.Scenario.Outcome, report.SinkNames(sr.Config.Observe))); err != nil {
				return "", nil, err
			}
			b.WriteString("```\n\n")
		}
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.matrix"))
	for _, s := range v.Stories {
		m, err := matrix(s.Scenario)
		if err != nil {
			return "", nil, err
		}
		fmt.Fprintf(&b, "```sh\nonce matrix %s --seeds 100\n```\n\n%s\n", s.Scenario, strings.TrimSpace(m)+"\n")
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.teacher"))
	for j, q := range v.Questions {
		fmt.Fprintf(&b, "%d. %s  \n   **%s: %c) %s**  \n   %s (%s): %s\n\n", j+1, q.Text, lang.T("lesson.answer"),
			'a'+q.Answer, q.Choices[q.Answer], lang.T("lesson.why"), q.Semantics, oneLine(q.Why))
	}
	return b.String(), svgs, nil
}

// runSVG draws one run's semantics side by side on one time axis, the
// way `once run --format svg` does.
func runSVG(res *lesson.Result) ([]byte, error) {
	var panels []svg.Panel
	for _, sr := range res.Runs {
		o := sr.Outcome
		title := fmt.Sprintf("%s: %s\n%s", o.Semantics, OutcomeWords(res.Scenario, o), report.PromiseText(o))
		events, note := report.FocusEvents(sr.Trace.Events, focusOps(o))
		if note != "" {
			title += "\n" + note
		}
		panels = append(panels, svg.Panel{Topology: sr.Config.Topology, Events: events, Title: title})
	}
	var b bytes.Buffer
	var err error
	if len(panels) == 1 {
		err = svg.WritePanels(&b, panels)
	} else {
		err = svg.WriteColumns(&b, fmt.Sprintf("%s · seed %d", res.Scenario.Name, res.Spec.Seed), panels)
	}
	if err != nil {
		return nil, fmt.Errorf("lesson pack: %s: %w", res.Spec.ID, err)
	}
	return b.Bytes(), nil
}

// focusOps are the operations a long diagram keeps: those that did not end
// exactly once.
func focusOps(o *sim.Outcome) []sim.OpID {
	var out []sim.OpID
	for _, op := range o.Ops {
		if op.Verdict != sim.ExactlyOnce {
			out = append(out, op.Op)
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var mdLink = regexp.MustCompile(`href="([^":]+)\.md"`)

// htmlTwin renders a page's Markdown as a standalone HTML page: links to
// other pages point at their HTML twins, and mermaid.js draws every
// Mermaid block.
func htmlTwin(title, md string) ([]byte, error) {
	var body bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &body); err != nil {
		return nil, fmt.Errorf("lesson pack: %s: %w", title, err)
	}
	out := mdLink.ReplaceAll(body.Bytes(), []byte(`href="$1.html"`))
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="%s">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body { font-family: sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.4rem; }
pre { background: #f5f5f5; padding: 0.5rem; overflow-x: auto; }
img { max-width: 100%%; border: 1px solid #ddd; }
code.language-mermaid { background: white; }
</style>
</head>
<body>
%s
<script src="%s"></script>
<script>
mermaid.initialize({startOnLoad: false});
mermaid.run({querySelector: "code.language-mermaid"});
</script>
</body>
</html>
`, lang.Current(), html.EscapeString(title), out, MermaidScript)
	return b.Bytes(), nil
}
