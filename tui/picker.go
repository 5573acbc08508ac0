package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// pickedMsg says the user chose a scenario in the picker.
type pickedMsg struct{ sc *scenarios.Scenario }

// picker lists the scenarios: name, topology, the semantics each
// supports, and the story of the one under the cursor.
type picker struct {
	list   []*scenarios.Scenario
	cursor int
	offset int
	keys   pickerKeys
	width  int
	height int
}

func newPicker(list []*scenarios.Scenario) picker {
	return picker{list: list, keys: newPickerKeys(), width: 80, height: 20}
}

// setSize gives the picker its share of the screen.
func (p picker) setSize(width, height int) picker {
	p.width, p.height = width, height
	return p.scroll()
}

// listRows is how many scenarios the list shows: about half the screen,
// leaving the rest to the story of the one under the cursor.
func (p picker) listRows() int {
	return max(3, min(len(p.list), (p.height-4)/2))
}

func (p picker) scroll() picker {
	rows := p.listRows()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+rows {
		p.offset = p.cursor - rows + 1
	}
	p.offset = max(0, min(p.offset, len(p.list)-rows))
	return p
}

// selectName puts the cursor on the scenario called name, if listed.
func (p picker) selectName(name string) picker {
	for i, sc := range p.list {
		if sc.Name == name {
			p.cursor = i
		}
	}
	return p.scroll()
}

// update moves the cursor, or tells the root (through a command) that a
// scenario was picked.
func (p picker) update(msg tea.KeyPressMsg) (picker, tea.Cmd) {
	switch {
	case key.Matches(msg, p.keys.Up):
		if p.cursor > 0 {
			p.cursor--
		}
	case key.Matches(msg, p.keys.Down):
		if p.cursor < len(p.list)-1 {
			p.cursor++
		}
	case key.Matches(msg, p.keys.Pick):
		if len(p.list) == 0 {
			return p, nil
		}
		sc := p.list[p.cursor]
		return p, func() tea.Msg { return pickedMsg{sc: sc} }
	}
	return p.scroll(), nil
}

// view renders the list and, below it, the chosen scenario's summary and
// story.
func (p picker) view() string {
	var b strings.Builder
	b.WriteString(fit(styleTitle.Render("once tui")+styleDim.Render(" — "+lang.T("tui.picker.title")), p.width))
	b.WriteString("\n\n")
	nameW, topoW := 4, 8
	for _, sc := range p.list {
		nameW = max(nameW, len(sc.Name))
		topoW = max(topoW, len(sc.Topology))
	}
	b.WriteString(styleTitle.Render(fit(fmt.Sprintf("  %-*s  %-*s  %s", nameW, lang.T("tui.picker.scenario"), topoW, lang.T("tui.picker.topology"), lang.T("tui.picker.semantics")), p.width)))
	rows := p.listRows()
	for i := p.offset; i < len(p.list) && i < p.offset+rows; i++ {
		sc := p.list[i]
		var sems []string
		for _, s := range sc.Semantics {
			sems = append(sems, s.Alias())
		}
		line := fmt.Sprintf("  %-*s  %-*s  %s", nameW, sc.Name, topoW, sc.Topology, strings.Join(sems, " "))
		b.WriteString("\n")
		if i == p.cursor {
			b.WriteString(styleCursor.Render(pad("▸"+line[1:], p.width)))
		} else {
			b.WriteString(fit(line, p.width))
		}
	}
	if len(p.list) > rows {
		b.WriteString("\n" + styleDim.Render("  "+lang.Tf("tui.picker.range", map[string]any{"From": p.offset + 1, "To": min(len(p.list), p.offset+rows), "Of": len(p.list)})))
	}
	if len(p.list) == 0 {
		b.WriteString("\n  " + lang.T("tui.picker.empty"))
		return b.String()
	}
	sc := p.list[p.cursor]
	b.WriteString("\n\n" + rule(sc.Name, p.width) + "\n")
	detail := append(wrap(lessonText(sc, "summary", sc.Summary), p.width-2), "")
	detail = append(detail, wrap(lessonText(sc, "story", sc.Lesson.Story), p.width-2)...)
	room := max(1, p.height-rows-7)
	if len(detail) > room {
		detail = detail[:room]
	}
	for i, l := range detail {
		if i > 0 {
			b.WriteString("\n")
		}
		if i == 0 {
			l = styleTitle.Render(l)
		}
		b.WriteString(" " + l)
	}
	return b.String()
}
