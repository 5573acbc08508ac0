package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	course "github.com/oncesim/once/lesson"
)

// docs/lesson.md and the README tell the order and the counts the binary
// has: the tables of docs/lesson.md list each track's steps in order
// (with the core's minutes), and both say how many steps each track has.
func TestLessonDocsAgreeWithTheCourse(t *testing.T) {
	c, err := course.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/lesson.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// Table rows "| N | `id` | … | min | …": numbering restarts at 1
	// for the advanced track's table.
	row := regexp.MustCompile("(?m)^\\| (\\d+) \\| `([a-z0-9-]+)` \\|(.*)$")
	var tables [][]string
	var minutes [][]int
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		if m[1] == "1" {
			tables, minutes = append(tables, nil), append(minutes, nil)
		}
		cells := strings.Split(m[3], "|")
		min := -1
		for _, cell := range cells {
			if n, err := strconv.Atoi(strings.TrimSpace(cell)); err == nil {
				min = n
				break
			}
		}
		tables[len(tables)-1] = append(tables[len(tables)-1], m[2])
		minutes[len(minutes)-1] = append(minutes[len(minutes)-1], min)
	}
	tracks := []string{course.TrackCore, course.TrackAdvanced}
	if len(tables) != len(tracks) {
		t.Fatalf("docs/lesson.md has %d step tables, want %d (one per track)", len(tables), len(tracks))
	}
	for i, track := range tracks {
		tc, err := c.Track(track)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		var mins []int
		for _, s := range tc.Steps {
			ids, mins = append(ids, s.ID), append(mins, s.Minutes)
		}
		if !slices.Equal(tables[i], ids) {
			t.Errorf("docs/lesson.md, track %s: steps %v, the binary has %v", track, tables[i], ids)
		}
		if !slices.Equal(minutes[i], mins) {
			t.Errorf("docs/lesson.md, track %s: minutes %v, the binary has %v", track, minutes[i], mins)
		}
		for name, text := range map[string][]byte{"docs/lesson.md": doc, "README.md": readme} {
			if want := fmt.Sprintf("%d steps", len(ids)); !strings.Contains(string(text), want) {
				t.Errorf("%s does not say %q (track %s)", name, want, track)
			}
		}
	}
}
