package lessonview

import (
	"fmt"
	"html"
	"strings"
)

// The lesson pack writes its pages in Markdown, and markdownHTML renders
// them as HTML. It reads the subset the pack writes — ATX headings,
// paragraphs, tight and loose lists (ordered and bulleted, nested), fenced
// code, GFM tables, and inline code spans, strong and emphasis with *,
// links, images and hard line breaks — and renders it as CommonMark with
// GFM's tables does (a test holds it to goldmark, byte for byte, on every
// page of the pack in every language). A line it does not understand is a
// paragraph; nothing is dropped. It exists so that every once process does
// not pay goldmark's package initialisation (its autolink patterns), which
// ran before the first event of every once run.

// markdownHTML renders md as an HTML fragment.
func markdownHTML(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var b strings.Builder
	renderBlocks(&b, lines, false)
	return b.String()
}

// renderBlocks renders a sequence of block lines. tight renders a
// paragraph without its <p> (a paragraph directly inside a tight list's
// item).
func renderBlocks(b *strings.Builder, lines []string, tight bool) {
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case strings.HasPrefix(line, "```"):
			i = renderFence(b, lines, i)
		case headingLevel(line) > 0:
			n := headingLevel(line)
			text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[n:]), "#"))
			fmt.Fprintf(b, "<h%d>%s</h%d>\n", n, renderInline(text), n)
			i++
		case isTableStart(lines, i):
			i = renderTable(b, lines, i)
		case listMarker(line) != nil:
			i = renderList(b, lines, i)
		default:
			i = renderParagraph(b, lines, i, tight)
		}
	}
}

// headingLevel is the level of an ATX heading line, 0 if it is not one.
func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(line) && line[n] != ' ') {
		return 0
	}
	return n
}

// renderFence renders the fenced code block opening at lines[i] and
// returns the index after its closing fence.
func renderFence(b *strings.Builder, lines []string, i int) int {
	info := strings.TrimSpace(strings.TrimPrefix(lines[i], "```"))
	if info != "" {
		fmt.Fprintf(b, "<pre><code class=\"language-%s\">", html.EscapeString(strings.Fields(info)[0]))
	} else {
		b.WriteString("<pre><code>")
	}
	i++
	for ; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
		b.WriteString(escapeText(lines[i]))
		b.WriteByte('\n')
	}
	b.WriteString("</code></pre>\n")
	if i < len(lines) {
		i++
	}
	return i
}

// renderParagraph renders the paragraph starting at lines[i]: its lines up
// to a blank line or the start of another block.
func renderParagraph(b *strings.Builder, lines []string, i int, tight bool) int {
	var text []string
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || (len(text) > 0 && (headingLevel(l) > 0 || strings.HasPrefix(l, "```") || listMarker(l) != nil || isTableStart(lines, i))) {
			break
		}
		text = append(text, l)
	}
	var p strings.Builder
	for j, l := range text {
		last := j == len(text)-1
		hard := !last && (strings.HasSuffix(l, "  ") || strings.HasSuffix(l, "\\"))
		l = strings.TrimLeft(l, " ")
		if strings.HasSuffix(l, "\\") && !last {
			l = strings.TrimSuffix(l, "\\")
		}
		l = strings.TrimRight(l, " ")
		p.WriteString(renderInline(l))
		switch {
		case last:
		case hard:
			p.WriteString("<br>\n")
		default:
			p.WriteByte('\n')
		}
	}
	if tight {
		b.WriteString(p.String())
		b.WriteByte('\n')
	} else {
		fmt.Fprintf(b, "<p>%s</p>\n", p.String())
	}
	return i
}

// marker is a list item's marker: ordered or not, its number, and the
// width up to the item's content.
type marker struct {
	ordered bool
	start   int
	indent  int // columns before the marker
	content int // columns before the content
}

// listMarker reads a list item's marker at the start of line, nil if the
// line does not start an item.
func listMarker(line string) *marker {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent > 3 {
		return nil
	}
	rest := line[indent:]
	if strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "+ ") {
		return &marker{indent: indent, content: indent + 2}
	}
	n := 0
	for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n >= len(rest)-1 || (rest[n] != '.' && rest[n] != ')') || rest[n+1] != ' ' {
		return nil
	}
	start := 0
	for _, c := range rest[:n] {
		start = start*10 + int(c-'0')
	}
	return &marker{ordered: true, start: start, indent: indent, content: indent + n + 2}
}

// renderList renders the list starting at lines[i] and returns the index
// after it.
func renderList(b *strings.Builder, lines []string, i int) int {
	first := listMarker(lines[i])
	var items [][]string
	loose := false
	for i < len(lines) {
		m := listMarker(lines[i])
		if m == nil || m.ordered != first.ordered || m.indent >= first.content {
			break
		}
		item := []string{lines[i][m.content:]}
		i++
		for i < len(lines) {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				// A blank line: the item goes on if an indented line follows.
				j := i
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				if j < len(lines) && indentOf(lines[j]) >= m.content {
					item = append(item, "")
					i++
					continue
				}
				break
			}
			if indentOf(l) >= m.content {
				item = append(item, l[m.content:])
				i++
				continue
			}
			if lm := listMarker(l); lm != nil || headingLevel(l) > 0 || strings.HasPrefix(l, "```") {
				break
			}
			// A lazy continuation of the item's paragraph.
			item = append(item, l)
			i++
		}
		items = append(items, item)
		// A blank line between this item and the next makes the list loose.
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && j > i {
			if nm := listMarker(lines[j]); nm != nil && nm.ordered == first.ordered && nm.indent < first.content {
				loose = true
				i = j
				continue
			}
		}
		if j > i {
			break
		}
	}
	for _, item := range items {
		if blankBetweenBlocks(item) {
			loose = true
		}
	}
	tag := "ul"
	if first.ordered {
		tag = "ol"
		if first.start != 1 {
			fmt.Fprintf(b, "<ol start=\"%d\">\n", first.start)
		} else {
			b.WriteString("<ol>\n")
		}
	} else {
		b.WriteString("<ul>\n")
	}
	for _, item := range items {
		b.WriteString("<li>")
		var inner strings.Builder
		renderBlocks(&inner, item, !loose)
		s := inner.String()
		if loose || !strings.HasPrefix(s, "<") || strings.HasPrefix(s, "<code>") || strings.HasPrefix(s, "<strong>") ||
			strings.HasPrefix(s, "<em>") || strings.HasPrefix(s, "<a ") || strings.HasPrefix(s, "<img ") {
			if loose {
				b.WriteByte('\n')
			}
			s = strings.TrimSuffix(s, "\n")
			if loose || strings.Contains(s, "\n<ul>") || strings.Contains(s, "\n<ol>") || strings.Contains(s, "\n<pre>") {
				s += "\n"
			}
		} else {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		b.WriteString("</li>\n")
	}
	fmt.Fprintf(b, "</%s>\n", tag)
	return i
}

// blankBetweenBlocks says whether an item's lines hold a blank line between
// two of its blocks (which makes its list loose).
func blankBetweenBlocks(item []string) bool {
	for k := 1; k < len(item)-1; k++ {
		if strings.TrimSpace(item[k]) == "" && strings.TrimSpace(item[k+1]) != "" && indentOf(item[k+1]) == 0 {
			return true
		}
	}
	return false
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// isTableStart says whether lines[i] is a GFM table's header row: a row
// of cells followed by a delimiter row of as many cells.
func isTableStart(lines []string, i int) bool {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") {
		return false
	}
	delims := tableCells(lines[i+1])
	if len(delims) == 0 || len(delims) != len(tableCells(lines[i])) {
		return false
	}
	for _, d := range delims {
		d = strings.TrimSpace(d)
		if strings.Trim(d, ":-") != "" || !strings.Contains(d, "-") {
			return false
		}
	}
	return true
}

// tableCells splits a table row into its cells; a \| is a | inside a cell.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	var cells []string
	var cur strings.Builder
	for k := 0; k < len(row); k++ {
		switch {
		case row[k] == '\\' && k+1 < len(row) && row[k+1] == '|':
			cur.WriteByte('|')
			k++
		case row[k] == '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(row[k])
		}
	}
	return append(cells, cur.String())
}

// renderTable renders the table whose header is lines[i] and returns the
// index after its last row.
func renderTable(b *strings.Builder, lines []string, i int) int {
	head := tableCells(lines[i])
	var align []string
	for _, d := range tableCells(lines[i+1]) {
		d = strings.TrimSpace(d)
		switch l, r := strings.HasPrefix(d, ":"), strings.HasSuffix(d, ":"); {
		case l && r:
			align = append(align, "center")
		case r:
			align = append(align, "right")
		case l:
			align = append(align, "left")
		default:
			align = append(align, "")
		}
	}
	row := func(tag string, cells []string) {
		b.WriteString("<tr>\n")
		for k := range head {
			text := ""
			if k < len(cells) {
				text = strings.TrimSpace(cells[k])
			}
			if align[k] != "" {
				fmt.Fprintf(b, "<%s style=\"text-align:%s\">%s</%s>\n", tag, align[k], renderInline(text), tag)
			} else {
				fmt.Fprintf(b, "<%s>%s</%s>\n", tag, renderInline(text), tag)
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<table>\n<thead>\n")
	row("th", head)
	b.WriteString("</thead>\n")
	i += 2
	body := false
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.Contains(lines[i], "|"); i++ {
		if !body {
			b.WriteString("<tbody>\n")
			body = true
		}
		row("td", tableCells(lines[i]))
	}
	if body {
		b.WriteString("</tbody>\n")
	}
	b.WriteString("</table>\n")
	return i
}

// renderInline renders a line's inline Markdown: code spans, images,
// links, ** and * emphasis, backslash escapes; the rest is escaped text.
func renderInline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>\"'~", s[i+1]) >= 0:
			b.WriteString(escapeText(s[i+1 : i+2]))
			i += 2
		case c == '`':
			n := run(s, i, '`')
			end := strings.Index(s[i+n:], s[i:i+n])
			if end < 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			code := s[i+n : i+n+end]
			if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.TrimSpace(code) != "" {
				code = code[1 : len(code)-1]
			}
			b.WriteString("<code>" + escapeText(code) + "</code>")
			i += n + end + n
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			if text, url, n, ok := linkAt(s, i+1); ok {
				fmt.Fprintf(&b, `<img src="%s" alt="%s">`, escapeURL(url), escapeText(plainText(text)))
				i += 1 + n
				continue
			}
			b.WriteByte('!')
			i++
		case c == '[':
			if text, url, n, ok := linkAt(s, i); ok {
				fmt.Fprintf(&b, `<a href="%s">%s</a>`, escapeURL(url), renderInline(text))
				i += n
				continue
			}
			b.WriteByte('[')
			i++
		case c == '*':
			n := run(s, i, '*')
			if n >= 2 {
				if end := closingDelim(s, i+2, "**"); end > 0 {
					b.WriteString("<strong>" + renderInline(s[i+2:end]) + "</strong>")
					i = end + 2
					continue
				}
			}
			if end := closingDelim(s, i+1, "*"); end > 0 && n == 1 {
				b.WriteString("<em>" + renderInline(s[i+1:end]) + "</em>")
				i = end + 1
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
		default:
			j := i + 1
			for j < len(s) && strings.IndexByte("\\`![*", s[j]) < 0 {
				j++
			}
			b.WriteString(escapeText(s[i:j]))
			i = j
		}
	}
	return b.String()
}

// run is the length of the run of c starting at s[i].
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingDelim finds the delimiter d closing an emphasis opened before
// s[from]: not preceded by a space, not followed by another *. -1 if none.
func closingDelim(s string, from int, d string) int {
	if from >= len(s) || s[from] == ' ' {
		return -1
	}
	for k := from; k+len(d) <= len(s); k++ {
		if s[k] == '`' { // a code span is opaque
			n := run(s, k, '`')
			if end := strings.Index(s[k+n:], s[k:k+n]); end >= 0 {
				k += n + end + n - 1
				continue
			}
		}
		if s[k:k+len(d)] == d && s[k-1] != ' ' && (k+len(d) == len(s) || s[k+len(d)] != '*') && (k == from || s[k-1] != '*') {
			return k
		}
	}
	return -1
}

// linkAt reads [text](url) at s[i] (s[i] is '['): the text, the url and
// the length read.
func linkAt(s string, i int) (text, url string, n int, ok bool) {
	depth, k := 0, i
	for ; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if k >= len(s) || k+1 >= len(s) || s[k+1] != '(' {
		return "", "", 0, false
	}
	end := strings.IndexByte(s[k+2:], ')')
	if end < 0 || strings.ContainsAny(s[k+2:k+2+end], " \t") { // a destination holds no space
		return "", "", 0, false
	}
	return s[i+1 : k], s[k+2 : k+2+end], k + 2 + end + 1 - i, true
}

// plainText is an image's alt text: its inline markup's text alone.
func plainText(s string) string {
	r := strings.NewReplacer("**", "", "`", "")
	return r.Replace(s)
}

// escapeText escapes text for HTML as CommonMark renderers do.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// escapeURL escapes a link destination: percent-encoding what a URL may not
// hold raw, then HTML-escaping.
func escapeURL(u string) string {
	var b strings.Builder
	for _, c := range []byte(u) {
		switch {
		case c == ' ' || c >= 0x80 || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}':
			fmt.Fprintf(&b, "%%%02X", c)
		case c == '&':
			b.WriteString("&amp;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
