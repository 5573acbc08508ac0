// Package termtext makes a text that came from a file (a scenario's
// summary and lesson, a lab node's output, a live target's answer) safe to
// print on a terminal: every control character is escaped, so a BEL, an
// ESC that starts an OSC or CSI sequence (a window title, a cleared
// screen, a hyperlink) or a carriage return that rewrites the line shows
// as text instead of acting. Text and TUI output escape with it at the
// boundary where a loaded text is printed; JSON needs it not (its encoder
// escapes control characters itself).
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character written as an escape:
// \a \b \f \r \v for those, \xNN for the other C0 characters, ESC (\x1b)
// and DEL (\x7f), \u00NN for the C1 characters (U+0080–U+009F, which some
// terminals obey as ESC sequences), \u20NN for the bidirectional
// overrides and isolates (which reorder what is shown), and \xNN for a
// byte that is not UTF-8. Line feeds and tabs stay: a multi-line text
// stays on its lines. A text with nothing to escape is returned as it is.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafe(r):
			b.WriteString(s[i : i+size])
		case r == '\a':
			b.WriteString(`\a`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\v':
			b.WriteString(`\v`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// firstUnsafe is the index of the first byte Escape changes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafe reports whether r must be escaped.
func unsafe(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
