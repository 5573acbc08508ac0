package report

import (
	"strings"
	"unicode/utf8"
)

// Columns lays out rows as a table of left-aligned columns two spaces
// apart, the first row being the header; widths count characters (a
// Cyrillic header is as wide as it looks), and the last column is not
// padded.
func Columns(rows [][]string) string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
