package lesson

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	course "github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lessonview"
)

func keyMsg(s string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "down": tea.KeyDown, "up": tea.KeyUp, "esc": tea.KeyEscape}
	if c, ok := special[s]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

// press sends keys to the model and reports whether one of them quit.
func press(m Model, keys ...string) (Model, bool) {
	quit := false
	for _, k := range keys {
		next, cmd := m.Update(keyMsg(k))
		m = next.(Model)
		if cmd != nil {
			if _, ok := cmd().(tea.QuitMsg); ok {
				quit = true
			}
		}
	}
	return m, quit
}

func screen(m Model) string { return ansi.Strip(m.Screen()) }

// A student answers the first step's three questions — right with
// letters, wrong with the arrow keys —, sees the reveal and the score,
// goes on to the next step and quits.
func TestLessonModelDrivenByKeys(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	v, err := lessonview.Build(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := New(c, []int{0, 1})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	s := screen(m)
	if !strings.Contains(s, "Step 1 of 10") || !strings.Contains(s, v.Questions[0].Text[:30]) || !strings.Contains(s, "Score: 0 of 0") {
		t.Fatalf("first screen:\n%s", s)
	}
	if n := strings.Count(s, "\n") + 1; n != 24 {
		t.Errorf("the screen has %d lines at 80×24", n)
	}
	// Questions 1 and 2: the right letter. Question 3: move the cursor off
	// the right answer with the arrows.
	right := func(i int) string { return string(rune('a' + v.Questions[i].Answer)) }
	m, _ = press(m, right(0), "enter", right(1), "enter")
	if !strings.Contains(screen(m), "Score: 0 of 0") {
		t.Fatalf("the score moved before the reveal (it would tell the answers):\n%s", screen(m))
	}
	off := "down"
	if q := v.Questions[2]; q.Answer == len(q.Choices)-1 {
		off = "up"
	}
	m, _ = press(m, right(2), off, "enter")
	s = screen(m)
	if !m.revealed || !strings.Contains(s, "Score: 2 of 3") {
		t.Fatalf("after the third answer, want the results and 2 of 3:\n%s", s)
	}
	if !strings.Contains(s, "The run") || !strings.Contains(s, "once run double-billing") {
		t.Errorf("the reveal does not show the run:\n%s", s)
	}
	// Scrolling shows the rest of the reveal: the why of each question.
	for i := 0; i < 200 && !strings.Contains(screen(m), "n: next step"); i++ {
		m, _ = press(m, "down")
	}
	if !strings.Contains(screen(m), "n: next step") {
		t.Fatalf("scrolling never reached the end of the reveal")
	}
	m, _ = press(m, "n")
	if s := screen(m); !strings.Contains(s, "Step 2 of 10") || m.revealed {
		t.Fatalf("n did not go to step 2:\n%s", s)
	}
	if _, quit := press(m, "q"); !quit {
		t.Error("q did not quit")
	}
}

// At 140×45 the story and the question fit; every line fits the width.
func TestLessonModelFitsTheWindow(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		m := New(c, []int{5})
		next, _ := m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m = next.(Model)
		for _, view := range []Model{m, func() Model { m, _ := press(m, "a", "enter", "b", "enter"); return m }()} {
			lines := strings.Split(screen(view), "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i+1, w, l)
				}
			}
		}
	}
}

// At 80×24 the story and what to watch stay reachable while answering:
// s shows them (scrolling to their end), s again goes back to the
// question, the answer so far kept.
func TestLessonStoryReachableAt80x24(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	m := New(c, []int{0})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m, _ = press(m, "b", "enter") // question 1 answered, question 2 asked
	s := screen(m)
	if strings.Contains(s, "What to watch") {
		t.Fatalf("the question screen already shows what to watch: is the test stale?\n%s", s)
	}
	m, _ = press(m, "s")
	s = screen(m)
	if !strings.Contains(s, m.view.Stories[0].Summary[:30]) || strings.Count(s, "\n")+1 != 24 {
		t.Fatalf("s does not show the story at 80×24:\n%s", s)
	}
	watched := false
	for i := 0; i < 60 && !watched; i++ {
		watched = strings.Contains(screen(m), "What to watch") && strings.Contains(screen(m), "Count charges")
		m, _ = press(m, "down")
	}
	if !watched {
		t.Fatal("scrolling the story never reached what to watch")
	}
	m, _ = press(m, "s")
	if s := screen(m); !strings.Contains(s, "Predict before you run · 1 of 3 answered") {
		t.Fatalf("s did not go back to question 2:\n%s", s)
	}
}

// scrolled moves the body a line (down, j; up, k) or a page (pgdown,
// space; pgup: the body's room less one line), never above the top, and
// leaves it on any other key.
func TestScrolledKeys(t *testing.T) {
	m := Model{height: 10, scroll: 3} // bodyRoom 6: a page is 5 lines
	for k, want := range map[string]int{"down": 4, "j": 4, "up": 2, "k": 2, "pgdown": 8, "space": 8, "pgup": 0, "x": 3, "enter": 3} {
		if got := m.scrolled(k); got != want {
			t.Errorf("scroll 3, key %q: %d, want %d", k, got, want)
		}
	}
}

// The lesson's text is wrapped at spaces, never after a hyphen: a
// Romanian term inflected with one ("gateway-ul") or at-least-once stays
// whole on its line.
func TestWrapKeepsHyphenatedWords(t *testing.T) {
	text := "Un crash între taxare și stocarea răspunsului se rezolvă întrebând gateway-ul după aceeași cheie, cu at-least-once și retry-urile lui."
	for width := 20; width <= 60; width++ {
		for _, line := range strings.Split(wrap(text, width), "\n") {
			if strings.HasSuffix(strings.TrimRight(line, " "), "-") {
				t.Fatalf("width %d: a line ends at a hyphen: %q", width, line)
			}
			if strings.Contains(line, "\u2011") {
				t.Fatalf("width %d: the non-breaking hyphen is left in: %q", width, line)
			}
		}
	}
}
