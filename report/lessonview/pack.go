package lessonview

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/oncesim/once/report"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/svg"
)

// A PackFile is one file of the lesson pack: its path relative to the
// pack's root (slash-separated) and its contents.
type PackFile struct {
	Path string
	Data []byte
}

// Matrix returns the Markdown excerpt of `once matrix` for a scenario.
type Matrix func(scenario string) (string, error)

// The pack's two editions: the student's handout (story, commands,
// diagrams, questions) and the teacher's (the same with each run's
// outcome, the answers and the why in "For the teacher", the matrix
// excerpt and the timing of a 90-minute class).
const (
	Student = "student"
	Teacher = "teacher"
)

// ClassMinutes is the length of the class the teacher's edition times.
const ClassMinutes = 90

// Pack renders the lesson pack of the given steps: index.md (the two
// editions), and in student/ and teacher/ an index, one page per step
// (NN-id.md) and the HTML twin of every page; the space-time diagrams
// the pages show, one SVG per semantics drawn at full width (diagrams/,
// shared by both editions). No page loads anything from the network:
// the diagrams are the project's own SVG, drawn when the pack is written.
// matrix supplies each scenario's matrix excerpt; slides adds the
// diagrams as 16:9 slides (see Slides); teacher adds the teacher's
// edition (the caller asks for the class key first: it holds the
// answers).
func Pack(views []*StepView, matrix Matrix, slides, teacher bool) ([]PackFile, error) {
	var files []PackFile
	add := func(path string, data []byte) { files = append(files, PackFile{Path: path, Data: data}) }
	diagrams := map[string]map[string][]Diagram{Student: {}, Teacher: {}} // by edition, by step
	for _, v := range views {
		for _, edition := range []string{Student, Teacher} {
			if edition == Teacher && !teacher && !slides {
				continue
			}
			ds, err := StepDiagrams(v, edition)
			if err != nil {
				return nil, err
			}
			diagrams[edition][v.ID] = ds
			for _, d := range ds {
				add("diagrams/"+d.File, d.SVG)
			}
		}
	}
	if slides {
		sl, err := Slides(views)
		if err != nil {
			return nil, err
		}
		files = append(files, sl...)
	}
	minutes := timing(views)
	editions := []string{Student}
	if teacher {
		editions = append(editions, Teacher)
	}
	for _, edition := range editions {
		var index strings.Builder
		intro := map[string]string{Student: lang.T("lesson.index_intro_student"), Teacher: lang.T("lesson.index_intro_teacher")}[edition]
		fmt.Fprintf(&index, "# %s\n\n%s\n\n", lang.T("lesson.index_title"), intro)
		for i, v := range views {
			name := PageName(v)
			fmt.Fprintf(&index, "%d. [%s](%s.md) ([HTML](%s.html))", v.Number, v.Title, name, name)
			fmt.Fprintf(&index, " — %s", lang.Tf("lesson.minutes", map[string]any{"N": minutes[i]}))
			index.WriteString("\n")
			var prev, next string
			if i > 0 {
				prev = PageName(views[i-1])
			}
			if i+1 < len(views) {
				next = PageName(views[i+1])
			}
			page, err := stepPage(v, prev, next, matrix, diagrams[edition][v.ID], edition)
			if err != nil {
				return nil, err
			}
			add(edition+"/"+name+".md", []byte(page))
			h, err := htmlTwin(v.Title, page)
			if err != nil {
				return nil, err
			}
			add(edition+"/"+name+".html", h)
		}
		total := 0
		for _, m := range minutes {
			total += m
		}
		fmt.Fprintf(&index, "\n%s\n", lang.Tf("lesson.track_time", map[string]any{"N": total}))
		if edition == Teacher {
			fmt.Fprintf(&index, "\n%s\n", lang.Tf("lesson.timing", map[string]any{"N": ClassMinutes}))
		}
		add(edition+"/index.md", []byte(index.String()))
		h, err := htmlTwin(lang.T("lesson.index_title"), index.String())
		if err != nil {
			return nil, err
		}
		add(edition+"/index.html", h)
	}
	root := fmt.Sprintf("# %s\n\n- [%s](student/index.md) ([HTML](student/index.html))\n", lang.T("lesson.index_title"), lang.T("lesson.edition_student"))
	if teacher {
		root += fmt.Sprintf("- [%s](teacher/index.md) ([HTML](teacher/index.html))\n", lang.T("lesson.edition_teacher"))
	}
	add("index.md", []byte(root))
	h, err := htmlTwin(lang.T("lesson.index_title"), root)
	if err != nil {
		return nil, err
	}
	add("index.html", h)
	return files, nil
}

// timing is each step's time in class (lesson.Step.Minutes, what the
// course states and its test adds up): ClassMinutes less 10 for the
// opening and the wrap-up holds the core track's steps.
func timing(views []*StepView) []int {
	out := make([]int, len(views))
	for i, v := range views {
		out[i] = v.Minutes
	}
	return out
}

// PageName is the file name of a step's page, without extension.
func PageName(v *StepView) string { return fmt.Sprintf("%02d-%s", v.Number, v.ID) }

// A Diagram is one semantics of one run of a step, drawn on its own.
type Diagram struct {
	Run, File, Caption string
	SVG                []byte
}

// StepDiagrams draws every run of a step for an edition, one SVG per
// semantics, in the order the step shows them: the broken variant and its
// fix one after the other, each at the page's full width. The teacher's
// are titled with the outcome and the guarantee, and keep the operations
// that did not end once; the student's answer nothing before the reveal:
// titled with the semantics alone, the whole trace, every effect drawn
// alike (svg.Panel.Unmarked).
func StepDiagrams(v *StepView, edition string) ([]Diagram, error) {
	var out []Diagram
	for _, r := range v.Runs {
		res := v.Results[r.ID]
		for _, sr := range res.Runs {
			o := sr.Outcome
			title := fmt.Sprintf("%s: %s\n%s", o.Semantics, OutcomeWords(res.Scenario, o), report.PromiseText(o))
			events, note := report.FocusEvents(sr.Config.Topology, sr.Trace.Events, report.FocusOps(o))
			if note != "" {
				title += "\n" + note
			}
			file := fmt.Sprintf("%s.%s.%s.svg", PageName(v), r.ID, o.Semantics.Alias())
			panel := svg.Panel{Topology: sr.Config.Topology, Events: events, Title: title}
			if edition == Student {
				file = fmt.Sprintf("%s.%s.%s.student.svg", PageName(v), r.ID, o.Semantics.Alias())
				panel = svg.Panel{Topology: sr.Config.Topology, Events: sr.Trace.Events, Title: o.Semantics.String(), Unmarked: true}
			}
			var b bytes.Buffer
			if err := svg.WritePanels(&b, []svg.Panel{panel}); err != nil {
				return nil, fmt.Errorf("lesson pack: %s: %w", res.Spec.ID, err)
			}
			out = append(out, Diagram{Run: r.ID, File: file,
				Caption: fmt.Sprintf("%s — %s", r.Command, o.Semantics), SVG: b.Bytes()})
		}
	}
	return out, nil
}

// stepPage writes one step's Markdown page in an edition.
func stepPage(v *StepView, prev, next string, matrix Matrix, diagrams []Diagram, edition string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s · %s\n\n", lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total}), v.Title)
	nav := []string{fmt.Sprintf("[%s](index.md)", lang.T("lesson.back"))}
	if prev != "" {
		nav = append(nav, fmt.Sprintf("[%s](%s.md)", lang.T("lesson.prev"), prev))
	}
	if next != "" {
		nav = append(nav, fmt.Sprintf("[%s](%s.md)", lang.T("lesson.next_page"), next))
	}
	fmt.Fprintf(&b, "%s\n\n", strings.Join(nav, " · "))
	fmt.Fprintf(&b, "*%s*\n\n", PaceLine(v))
	if v.Student != "" {
		fmt.Fprintf(&b, "%s\n\n", SeedLine(v))
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.story"))
	for _, s := range v.Stories {
		fmt.Fprintf(&b, "### `%s` — %s\n\n%s\n\n**%s.** %s\n\n", s.Scenario, s.Summary, s.Story, lang.T("lesson.watch"), oneLine(s.Watch))
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.questions"))
	for j, q := range v.Questions {
		fmt.Fprintf(&b, "%d. %s\n", j+1, q.Text)
		for _, c := range EvidenceCommands(q) {
			fmt.Fprintf(&b, "   `%s`\n", c)
		}
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
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.diagrams"))
	for _, r := range v.Runs {
		fmt.Fprintf(&b, "### `%s`\n\n", r.Command)
		if edition == Teacher {
			for _, l := range r.Lines {
				fmt.Fprintf(&b, "- %s\n", l)
			}
			b.WriteString("\n")
		}
		for _, d := range diagrams {
			if d.Run == r.ID {
				fmt.Fprintf(&b, "![%s](../diagrams/%s)\n\n", d.Caption, d.File)
			}
		}
	}
	if len(v.Cuts) > 0 {
		// The searches' commands for every edition; their results, which
		// say who attacks alone, in the teacher's (item 4 of issue 30).
		cuts := CutLines(v)
		fmt.Fprintf(&b, "%s\n\n```sh\n", cuts[0])
		for _, c := range v.Cuts {
			fmt.Fprintf(&b, "%s\n", c.Command)
		}
		b.WriteString("```\n\n")
		if edition == Teacher {
			for _, l := range cuts[1:] {
				fmt.Fprintf(&b, "- %s\n", l)
			}
			b.WriteString("\n")
		}
	}
	if edition != Teacher {
		return b.String(), nil
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.matrix"))
	for _, s := range v.Stories {
		m, err := matrix(s.Scenario)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "```sh\nonce matrix %s --seeds 100\n```\n\n%s\n", s.Scenario, strings.TrimSpace(m)+"\n")
	}
	fmt.Fprintf(&b, "## %s\n\n", lang.T("lesson.teacher"))
	for j, q := range v.Questions {
		fmt.Fprintf(&b, "%d. %s  \n   **%s: %c) %s**  \n   %s (%s): %s\n\n", j+1, q.Text, lang.T("lesson.answer"),
			'a'+q.Answer, q.Choices[q.Answer], lang.T("lesson.why"), q.Semantics, oneLine(q.Why))
	}
	return b.String(), nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var mdLink = regexp.MustCompile(`href="([^":]+)\.md"`)

// htmlTwin renders a page's Markdown as a standalone HTML page: links to
// other pages point at their HTML twins; no script, no web font, nothing
// loaded from the network (a classroom projector, an exam room).
func htmlTwin(title, md string) ([]byte, error) {
	out := mdLink.ReplaceAllString(markdownHTML(md), `href="$1.html"`)
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
img { width: 100%%; height: auto; border: 1px solid #ddd; }
</style>
</head>
<body>
%s
</body>
</html>
`, lang.Current(), html.EscapeString(title), out)
	return b.Bytes(), nil
}
