// Package lesson is the guided lesson on a terminal (bubbletea v2): for
// each step the story and the predictions, chosen with the arrow keys or a
// letter, then the reveal — the runs, the right answers, the text traces
// and the why — and a score line throughout. It shows the same
// lessonview.StepView as the line quiz and the pack.
package lesson

import (
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/report/lessonview"
)

// Model is the lesson screen.
type Model struct {
	course        *course.Course
	steps         []int // indices of the steps to take, in order
	pos           int   // position in steps
	view          *lessonview.StepView
	question      int   // the question being asked
	cursor        int   // the highlighted choice
	given         []int // the answers to the current step's questions
	revealed      bool
	finished      bool
	story         bool // asking: the story and what to watch fill the body (s toggles)
	scroll        int  // first line shown of the body
	right, asked  int
	width, height int
	err           error
}

// New starts the lesson on its first step.
func New(c *course.Course, steps []int) Model {
	m := Model{course: c, steps: steps, width: 80, height: 24}
	return m.enter(0)
}

// enter builds the step at position pos and asks its first question.
func (m Model) enter(pos int) Model {
	m.pos, m.question, m.cursor, m.revealed, m.scroll, m.story = pos, 0, 0, false, 0, false
	if pos >= len(m.steps) {
		m.finished = true
		return m
	}
	v, err := lessonview.Build(m.course, m.steps[pos])
	if err != nil {
		m.err = err
		return m
	}
	m.view = v
	m.given = make([]int, len(v.Questions))
	return m
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

func (m Model) key(k string) (tea.Model, tea.Cmd) {
	if k == "q" || k == "ctrl+c" || k == "esc" {
		return m, tea.Quit
	}
	if m.err != nil || m.finished {
		return m, nil
	}
	if !m.revealed && m.story {
		if k == "s" || k == "enter" {
			m.story, m.scroll = false, 0
		} else {
			m.scroll = m.scrolled(k)
		}
		return m, nil
	}
	if !m.revealed {
		n := len(m.view.Questions[m.question].Choices)
		switch {
		case k == "s":
			m.story, m.scroll = true, 0
		case k == "up" || k == "k":
			m.cursor = (m.cursor + n - 1) % n
		case k == "down" || k == "j" || k == "tab":
			m.cursor = (m.cursor + 1) % n
		case len(k) == 1 && k[0] >= 'a' && int(k[0]-'a') < n:
			m.cursor = int(k[0] - 'a')
		case len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < n:
			m.cursor = int(k[0] - '1')
		case k == "enter" || k == "space":
			m.given[m.question] = m.cursor
			m.cursor = 0
			m.question++
			if m.question == len(m.view.Questions) {
				// Scored at the reveal, never before: the score line must
				// not tell whether a prediction was right.
				m.revealed = true
				for j, q := range m.view.Questions {
					m.asked++
					if m.given[j] == q.Answer {
						m.right++
					}
				}
			}
		}
		return m, nil
	}
	if k == "n" || k == "enter" || k == "right" {
		return m.enter(m.pos + 1), nil
	}
	m.scroll = m.scrolled(k)
	return m, nil
}

// scrolled is the body's scroll after key k: a line down or up (down, j;
// up, k), a page down or up (pgdown, space; pgup); any other key leaves
// it.
func (m Model) scrolled(k string) int {
	switch k {
	case "down", "j":
		return m.scroll + 1
	case "up", "k":
		return max(0, m.scroll-1)
	case "pgdown", "space":
		return m.scroll + max(1, m.bodyRoom()-1)
	case "pgup":
		return max(0, m.scroll-max(1, m.bodyRoom()-1))
	}
	return m.scroll
}

var (
	titleStyle = lipgloss.NewStyle().Bold(true)
	pickStyle  = lipgloss.NewStyle().Bold(true).Reverse(true)
	goodStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	badStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
	faintStyle = lipgloss.NewStyle().Faint(true)
)

// bodyRoom is how many lines the body has between the title and the
// score and key lines.
func (m Model) bodyRoom() int { return max(1, m.height-4) }

// View implements tea.Model.
func (m Model) View() tea.View {
	v := tea.NewView(m.Screen())
	v.AltScreen = true
	v.WindowTitle = "once lesson"
	return v
}

// Screen is the text of the screen: the title, the body cut to the
// window, the score line and the keys.
func (m Model) Screen() string {
	score := lang.Tf("lesson.score", map[string]any{"Right": m.right, "Asked": m.asked})
	keys := lang.T("lesson.keys")
	switch {
	case m.revealed:
		keys = lang.T("lesson.keys_reveal")
	case m.story:
		keys = lang.T("lesson.keys_story")
	}
	keys = faintStyle.Render(truncate(keys, m.width))
	var title, body string
	switch {
	case m.err != nil:
		title, body = "once lesson", m.err.Error()
	case m.finished:
		title, body = "once lesson", lang.T("lesson.done")
		if m.course.TrackName == course.TrackCore && len(m.steps) > 0 && m.steps[len(m.steps)-1] == len(m.course.Steps)-1 {
			body = lang.T("lesson.together") + "\n\n" + body // the course text's last part
		}
	default:
		title = lang.Tf("lesson.step_of", map[string]any{"N": m.view.Number, "Total": m.view.Total}) + " · " + m.view.Title +
			" · " + lang.Tf("lesson.minutes", map[string]any{"N": m.view.Minutes})
		switch {
		case m.revealed:
			body = m.revealBody()
		case m.story:
			body = m.storyBody()
		default:
			body = m.askBody()
		}
	}
	lines := strings.Split(wrap(body, m.width), "\n")
	room := m.bodyRoom()
	if (m.revealed || m.story) && !m.finished {
		start := min(m.scroll, max(0, len(lines)-room))
		lines = lines[start:]
	} else if len(lines) > room { // asking: keep the question and its choices in view
		lines = lines[len(lines)-room:]
	}
	if len(lines) > room {
		lines = lines[:room]
	}
	for len(lines) < room {
		lines = append(lines, "")
	}
	return titleStyle.Render(truncate(title, m.width)) + "\n\n" + strings.Join(lines, "\n") + "\n" + score + "\n" + keys
}

// storyBody is the step's story and what to watch, for every scenario
// it runs: reachable at any time while answering (s).
func (m Model) storyBody() string {
	var b strings.Builder
	if m.view.Student != "" {
		fmt.Fprintf(&b, "%s\n\n", lessonview.SeedLine(m.view))
	}
	for _, s := range m.view.Stories {
		fmt.Fprintf(&b, "%s — %s\n\n%s\n\n%s:\n%s\n\n", s.Scenario, s.Summary, s.Story, lang.T("lesson.watch"), s.Watch)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m Model) askBody() string {
	var b strings.Builder
	for _, s := range m.view.Stories {
		fmt.Fprintf(&b, "%s — %s\n\n%s\n\n", s.Scenario, s.Summary, s.Story)
	}
	q := m.view.Questions[m.question]
	fmt.Fprintf(&b, "%s · %s\n%s\n", lang.T("lesson.predict"),
		lang.Tf("lesson.answered", map[string]any{"N": m.question, "Total": len(m.view.Questions)}), q.Text)
	if !q.Mechanism { // answered from the run's output: the commands that print it
		cmds := lessonview.EvidenceCommands(q)
		if len(cmds) == 0 {
			for _, r := range m.view.Runs {
				cmds = append(cmds, r.Command)
			}
		}
		for _, c := range cmds {
			fmt.Fprintf(&b, "  $ %s\n", c)
		}
	}
	for k, ch := range q.Choices {
		line := fmt.Sprintf(" %c) %s ", 'a'+k, ch)
		if k == m.cursor {
			line = pickStyle.Render(line)
		}
		b.WriteString("  " + line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m Model) revealBody() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", lang.T("lesson.run"))
	for _, r := range m.view.Runs {
		fmt.Fprintf(&b, "$ %s\n", r.Command)
		for _, l := range r.Lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	if cuts := lessonview.CutLines(m.view); len(cuts) > 0 {
		fmt.Fprintf(&b, "\n%s\n", cuts[0])
		for _, l := range cuts[1:] {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	for j, q := range m.view.Questions {
		answer := fmt.Sprintf("%c) %s", 'a'+q.Answer, q.Choices[q.Answer])
		fmt.Fprintf(&b, "\n%s. %s\n", lang.Tf("lesson.question_n", map[string]any{"N": j + 1}), q.Text)
		if m.given[j] == q.Answer {
			b.WriteString(goodStyle.Render("✓ "+lang.Tf("lesson.right", map[string]any{"Answer": answer})) + "\n")
		} else {
			given := fmt.Sprintf("%c) %s", 'a'+m.given[j], q.Choices[m.given[j]])
			b.WriteString(badStyle.Render("✗ "+lang.Tf("lesson.wrong", map[string]any{"Answer": answer, "Given": given})) + "\n")
		}
		for _, l := range strings.Split(strings.TrimRight(q.Diagram, "\n"), "\n") {
			b.WriteString(faintStyle.Render(truncate(l, m.width)) + "\n") // a trace line is cut, never wrapped
		}
		fmt.Fprintf(&b, "%s (%s): %s\n", lang.T("lesson.why"), q.Semantics, strings.Join(strings.Fields(q.Why), " "))
	}
	fmt.Fprintf(&b, "\n%s", lang.T("lesson.next"))
	return b.String()
}

// wrap breaks every line of s at width (ANSI styles kept), at spaces
// only: the wrapper would also break after a hyphen, splitting the
// course's inflected terms ("gateway-" / "ul", "retry-" / "urile") and
// at-least-once, so a hyphen is a non-breaking one while it wraps.
func wrap(s string, width int) string {
	s = strings.ReplaceAll(s, "-", nonBreakingHyphen)
	return strings.ReplaceAll(lipgloss.NewStyle().Width(max(10, width)).Render(s), nonBreakingHyphen, "-")
}

// nonBreakingHyphen is U+2011, one cell wide like "-".
const nonBreakingHyphen = "\u2011"

// truncate cuts s to width cells.
func truncate(s string, width int) string {
	r := []rune(s)
	if len(r) > width && width > 1 {
		return string(r[:width-1]) + "…"
	}
	return s
}

// Run starts the lesson on in/out and blocks until the user quits.
func Run(c *course.Course, steps []int, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(New(c, steps), tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	return err
}
