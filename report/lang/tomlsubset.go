package lang

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The message files are TOML, of which they use a small part: tables
// ([run], [claim.short]), keys bare or quoted, and string values (basic,
// literal, and their multi-line forms). unmarshalTOML reads that part and
// refuses everything else, so a command does not pay a general TOML
// parser at start-up: BurntSushi/toml spent about a quarter of `once run
// double-billing`'s instructions parsing three English files (17.4 M of
// 63.8 M, callgrind). TestTOMLSubsetReadsAsTOML holds it to BurntSushi/
// toml on every embedded file, and FuzzTOMLSubset holds that whatever it
// accepts, TOML reads the same.

// unmarshalTOML is a go-i18n UnmarshalFunc: v must be a *interface{},
// which it sets to the document's table (map[string]interface{}, tables
// nested, every leaf a string).
func unmarshalTOML(data []byte, v interface{}) error {
	out, ok := v.(*interface{})
	if !ok {
		return fmt.Errorf("toml: decoding into %T, want *interface{}", v)
	}
	p := &tomlParser{src: string(data), line: 1, root: map[string]interface{}{}}
	if err := p.document(); err != nil {
		return err
	}
	unmark(p.root)
	*out = p.root
	return nil
}

// unmark deletes the marks of dotted-key tables from t and its tables.
func unmark(t map[string]interface{}) {
	delete(t, dottedMark)
	for _, v := range t {
		if sub, ok := v.(map[string]interface{}); ok {
			unmark(sub)
		}
	}
}

type tomlParser struct {
	src     string
	pos     int
	line    int
	root    map[string]interface{}
	defined map[string]bool // table headers seen, by dotted path
}

func (p *tomlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("toml: line %d: %s", p.line, fmt.Sprintf(format, args...))
}

func (p *tomlParser) eof() bool { return p.pos >= len(p.src) }

func (p *tomlParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

// blanks skips spaces and tabs.
func (p *tomlParser) blanks() {
	for !p.eof() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// endOfLine accepts blanks, an optional comment and the line's end.
func (p *tomlParser) endOfLine() error {
	p.blanks()
	if p.peek() == '#' {
		for !p.eof() && p.src[p.pos] != '\n' {
			if c := p.src[p.pos]; c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
				return p.errorf("control character %#02x in a comment", c)
			}
			p.pos++
		}
	}
	switch {
	case p.eof():
		return nil
	case strings.HasPrefix(p.src[p.pos:], "\r\n"):
		p.pos += 2
	case p.src[p.pos] == '\n':
		p.pos++
	default:
		return p.errorf("unexpected %q after a value", p.src[p.pos])
	}
	p.line++
	return nil
}

func (p *tomlParser) document() error {
	if !utf8.ValidString(p.src) {
		return fmt.Errorf("toml: the file is not UTF-8")
	}
	p.defined = map[string]bool{}
	table := p.root
	for !p.eof() {
		p.blanks()
		switch c := p.peek(); {
		case c == '#' || c == '\n' || c == '\r' || c == 0:
			if err := p.endOfLine(); err != nil {
				return err
			}
		case c == '[':
			t, err := p.header()
			if err != nil {
				return err
			}
			table = t
		default:
			if err := p.keyValue(table); err != nil {
				return err
			}
		}
	}
	return nil
}

// header reads "[a.b]" and returns the table it opens.
func (p *tomlParser) header() (map[string]interface{}, error) {
	p.pos++ // [
	if p.peek() == '[' {
		return nil, p.errorf("arrays of tables are not used in message files")
	}
	path, err := p.key()
	if err != nil {
		return nil, err
	}
	p.blanks()
	if p.peek() != ']' {
		return nil, p.errorf("want ] to close the table header")
	}
	p.pos++
	name := strings.Join(path, "\x00")
	if p.defined[name] {
		return nil, p.errorf("table %s defined twice", strings.Join(path, "."))
	}
	p.defined[name] = true
	t := p.root
	for i, k := range path {
		switch next := t[k].(type) {
		case nil:
			m := map[string]interface{}{}
			t[k] = m
			t = m
		case map[string]interface{}:
			if i == len(path)-1 && p.dottedTable(next) {
				return nil, p.errorf("table %s already defined by dotted keys", strings.Join(path, "."))
			}
			t = next
		default:
			return nil, p.errorf("key %s is a string, not a table", strings.Join(path[:i+1], "."))
		}
	}
	return t, p.endOfLine()
}

// dottedTable says whether t was made by a dotted key (a.b = "x"), which
// a header may not reopen; such tables are marked by a key no header or
// key can spell.
func (p *tomlParser) dottedTable(t map[string]interface{}) bool {
	_, ok := t[dottedMark]
	return ok
}

// dottedMark marks, while parsing, a table that dotted keys made.
const dottedMark = "\x00dotted"

// keyValue reads `key = "value"` into table.
func (p *tomlParser) keyValue(table map[string]interface{}) error {
	path, err := p.key()
	if err != nil {
		return err
	}
	p.blanks()
	if p.peek() != '=' {
		return p.errorf("want = after the key %s", strings.Join(path, "."))
	}
	p.pos++
	p.blanks()
	value, err := p.value()
	if err != nil {
		return err
	}
	t := table
	for i, k := range path[:len(path)-1] {
		switch next := t[k].(type) {
		case nil:
			m := map[string]interface{}{dottedMark: true}
			t[k] = m
			t = m
		case map[string]interface{}:
			if !p.dottedTable(next) {
				return p.errorf("key %s extends a table defined elsewhere", strings.Join(path[:i+1], "."))
			}
			t = next
		default:
			return p.errorf("key %s is a string, not a table", strings.Join(path[:i+1], "."))
		}
	}
	last := path[len(path)-1]
	if _, dup := t[last]; dup {
		return p.errorf("key %s defined twice", strings.Join(path, "."))
	}
	t[last] = value
	return p.endOfLine()
}

// key reads a dotted key: bare or quoted parts joined by dots.
func (p *tomlParser) key() ([]string, error) {
	var path []string
	for {
		p.blanks()
		var part string
		switch c := p.peek(); {
		case c == '"':
			if strings.HasPrefix(p.src[p.pos:], `"""`) {
				return nil, p.errorf("a key cannot be a multi-line string")
			}
			s, err := p.str('"', false)
			if err != nil {
				return nil, err
			}
			part = s
		case c == '\'':
			if strings.HasPrefix(p.src[p.pos:], "'''") {
				return nil, p.errorf("a key cannot be a multi-line string")
			}
			s, err := p.str('\'', false)
			if err != nil {
				return nil, err
			}
			part = s
		case bareKeyByte(c):
			start := p.pos
			for !p.eof() && bareKeyByte(p.src[p.pos]) {
				p.pos++
			}
			part = p.src[start:p.pos]
		default:
			return nil, p.errorf("want a key, found %q", c)
		}
		if strings.IndexByte(part, 0) >= 0 {
			return nil, p.errorf("a key with a NUL character")
		}
		path = append(path, part)
		p.blanks()
		if p.peek() != '.' {
			return path, nil
		}
		p.pos++
	}
}

func bareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value reads a string in one of TOML's four forms; any other value is
// refused (message files hold strings only).
func (p *tomlParser) value() (string, error) {
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		return p.str('"', true)
	case strings.HasPrefix(rest, `"`):
		return p.str('"', false)
	case strings.HasPrefix(rest, "'''"):
		return p.str('\'', true)
	case strings.HasPrefix(rest, "'"):
		return p.str('\'', false)
	}
	return "", p.errorf("only string values are read from message files")
}

// openMultiline skips a multi-line string's opening quotes and the
// newline right after them, which TOML trims.
func (p *tomlParser) openMultiline() {
	p.pos += 3
	if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	} else if p.peek() == '\n' {
		p.pos++
		p.line++
	}
}

// closes says whether the multi-line string ends at p.pos (quote q three
// times), and how many of the quotes there belong to its content: a run
// of four or five ends with one or two quotes of content.
func (p *tomlParser) closes(q byte) (bool, int) {
	n := p.run(q)
	if n < 3 || n > 5 {
		return false, 0
	}
	return true, n - 3
}

// run counts the bytes q in a row at p.pos.
func (p *tomlParser) run(q byte) int {
	n := 0
	for p.pos+n < len(p.src) && p.src[p.pos+n] == q {
		n++
	}
	return n
}

// escape reads the escape at p.pos (a backslash) into b.
func (p *tomlParser) escape(b *strings.Builder, multiline bool) error {
	p.pos++
	if p.eof() {
		return p.errorf("unterminated string")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.pos+n > len(p.src) {
			return p.errorf("short \\%c escape", c)
		}
		hex := p.src[p.pos : p.pos+n]
		for i := 0; i < len(hex); i++ {
			if !strings.ContainsRune("0123456789abcdefABCDEF", rune(hex[i])) {
				return p.errorf("bad \\%c escape %q", c, hex)
			}
		}
		r, _ := strconv.ParseUint(hex, 16, 32)
		if !utf8.ValidRune(rune(r)) {
			return p.errorf("\\%c%s is not a character", c, hex)
		}
		b.WriteRune(rune(r))
		p.pos += n
	case ' ', '\t', '\r', '\n':
		// A line-ending backslash: whitespace and newlines up to the next
		// other character are trimmed; only blanks may stand between the
		// backslash and the line's end.
		if !multiline {
			return p.errorf("bad escape \\%c", c)
		}
		p.pos--
		p.blanks()
		switch {
		case strings.HasPrefix(p.src[p.pos:], "\r\n"):
			p.pos += 2
		case p.peek() == '\n':
			p.pos++
		default:
			return p.errorf("a backslash before blanks that do not end the line")
		}
		p.line++
		for !p.eof() {
			switch p.src[p.pos] {
			case ' ', '\t':
				p.pos++
			case '\n':
				p.pos++
				p.line++
			case '\r':
				if !strings.HasPrefix(p.src[p.pos:], "\r\n") {
					return p.errorf("a carriage return alone in a string")
				}
				p.pos += 2
				p.line++
			default:
				return nil
			}
		}
	default:
		return p.errorf("bad escape \\%c", c)
	}
	return nil
}

// str reads a string quoted by q, one quote or three each side: a basic
// string (q a double quote) with its escapes, or a literal one (q a single
// quote) with none.
func (p *tomlParser) str(q byte, multiline bool) (string, error) {
	var b strings.Builder
	if multiline {
		p.openMultiline()
	} else {
		p.pos++
	}
	for {
		if p.eof() {
			return "", p.errorf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == q && !multiline:
			p.pos++
			return b.String(), nil
		case c == q:
			if end, extra := p.closes(q); end {
				b.WriteString(strings.Repeat(string(q), extra))
				p.pos += 3 + extra
				return b.String(), nil
			}
			if n := p.run(q); n > 5 {
				return "", p.errorf("more than five quotes in a row")
			}
			b.WriteByte(c)
			p.pos++
		case c == '\\' && q == '"':
			if err := p.escape(&b, multiline); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r':
			if !multiline {
				return "", p.errorf("newline in a one-line string")
			}
			if c == '\r' && !strings.HasPrefix(p.src[p.pos:], "\r\n") {
				return "", p.errorf("a carriage return alone in a string")
			}
			if c == '\r' {
				b.WriteByte('\r')
				p.pos++
			}
			b.WriteByte('\n')
			p.pos++
			p.line++
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errorf("control character %#02x in a string", c)
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}
