package scenarios

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// checkShape scans a scenario file's text for the shape of its YAML and
// reports the first place nested deeper than MaxNestingDepth — block
// indentation levels (mappings and "- " lists) plus open flow collections
// ([ and {) — or holding more than MaxScenarioNodes values and
// collections. It runs before the YAML parser, whose memory grows much
// faster than the file: nested brackets ("name: [[[[…]]]]") took 2.4 GB
// for 200 KB, and a flat list of one-letter values about 800 bytes per
// byte of file.
//
// The scan approximates YAML's structure, linear in the file and
// allocation-light: it skips comments, quoted scalars (also across lines)
// and block scalars (| and >), and counts a [ or { only where a node can
// start, so a bracket in a string or in prose like "x[1]" does not count.
// A scalar on a line of its own ("- x") counts as a level, one after its
// key ("k: x") does not; TestCheckShapeAgreesWithYAML holds the scan to
// that, against the YAML writer.
func checkShape(data []byte) *inputProblem {
	s := shapeScan{blockParent: -1}
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if p := s.line(lineNo, bytes.TrimSuffix(line, []byte{'\r'})); p != nil {
			return p
		}
	}
	return nil
}

// blockLevel is an open block node: its column, and whether it is a list
// (a "- " item), which may sit at the column of the key it belongs to.
type blockLevel struct {
	col int
	seq bool
}

// shapeScan is the state of checkShape between lines.
type shapeScan struct {
	indents     []blockLevel // the open block nodes, innermost last
	flow        int          // open [ and { collections
	quote       byte         // the open quote (' or ") of a scalar spanning lines, or 0
	blockParent int          // in a | or > block scalar: the indentation of its parent line; -1 outside
	nodes       int          // values and collections seen so far
}

// line scans one line (without its line break).
func (s *shapeScan) line(lineNo int, line []byte) *inputProblem {
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	blank := indent == len(line) || isBlankLine(line[indent:])
	if s.blockParent >= 0 {
		if blank || indent > s.blockParent {
			return nil // text of the block scalar
		}
		s.blockParent = -1
	}
	pos := 0
	if s.quote == 0 && s.flow == 0 {
		if blank || line[indent] == '#' {
			return nil
		}
		// Close the nodes this line is not inside of. A list item at the
		// column of a key is that key's value ("key:\n- item"): the key
		// stays open.
		item := line[indent] == '-' && isIndicator(line, indent)
		for len(s.indents) > 0 {
			top := s.indents[len(s.indents)-1]
			if top.col < indent || (top.col == indent && !top.seq && item) {
				break
			}
			s.indents = s.indents[:len(s.indents)-1]
		}
		// Each "- ", "? " or ": " indicator at the start of a line opens
		// one more node on the same line ("- - - x" nests three lists).
		pos = indent
		for {
			s.indents = append(s.indents, blockLevel{col: pos, seq: line[pos] == '-' && isIndicator(line, pos)})
			if s.depth() > MaxNestingDepth {
				return s.tooDeep(lineNo, line, pos)
			}
			if !isIndicator(line, pos) {
				if p := s.count(lineNo, line, pos); p != nil {
					return p
				}
				break
			}
			pos++
			for pos < len(line) && (line[pos] == ' ' || line[pos] == '\t') {
				pos++
			}
			if pos == len(line) {
				break
			}
		}
	}
	return s.rest(lineNo, line, pos, indent)
}

// rest scans the line from pos, where a node may start, for quotes,
// comments, block scalar headers and flow collections.
func (s *shapeScan) rest(lineNo int, line []byte, pos, indent int) *inputProblem {
	nodeStart := true
	for i := pos; i < len(line); i++ {
		c := line[i]
		switch s.quote {
		case '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				s.quote, nodeStart = 0, false
			}
			continue
		case '\'':
			if c == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
				} else {
					s.quote, nodeStart = 0, false
				}
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return nil // a comment to the end of the line
		case (c == '"' || c == '\'') && nodeStart:
			s.quote = c
			nodeStart = false
			if p := s.count(lineNo, line, i); p != nil {
				return p
			}
		case c == '[' || c == '{':
			if nodeStart || s.flow > 0 {
				s.flow++
				if s.depth() > MaxNestingDepth {
					return s.tooDeep(lineNo, line, i)
				}
				if p := s.count(lineNo, line, i); p != nil {
					return p
				}
				nodeStart = true
				continue
			}
			nodeStart = false
		case c == ']' || c == '}':
			if s.flow > 0 {
				s.flow--
			}
			nodeStart = false
		case c == ',' && s.flow > 0:
			nodeStart = true
		case c == ':' && (i+1 == len(line) || isSpaceOrFlowEnd(line[i+1], s.flow > 0)):
			nodeStart = true
		case (c == '|' || c == '>') && nodeStart && s.flow == 0:
			s.blockParent = indent
			return nil // the header's rest is indicators and a comment
		case (c == '&' || c == '!') && nodeStart:
			for i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				i++ // an anchor or a tag: the node follows it
			}
		default:
			if nodeStart && s.flow > 0 {
				if p := s.count(lineNo, line, i); p != nil {
					return p // a plain value in a flow collection
				}
			}
			nodeStart = false
		}
	}
	return nil
}

// count counts one more value or collection, at line:at.
func (s *shapeScan) count(lineNo int, line []byte, at int) *inputProblem {
	s.nodes++
	if s.nodes > MaxScenarioNodes {
		return &inputProblem{lineNo, utf8.RuneCount(line[:at]) + 1,
			fmt.Sprintf("more than %d values, lists and mappings; a scenario needs far fewer", MaxScenarioNodes)}
	}
	return nil
}

func (s *shapeScan) depth() int { return len(s.indents) + s.flow }

func (s *shapeScan) tooDeep(lineNo int, line []byte, at int) *inputProblem {
	return &inputProblem{lineNo, utf8.RuneCount(line[:at]) + 1,
		fmt.Sprintf("nested more than %d levels deep (mappings, lists and brackets); a scenario needs far fewer", MaxNestingDepth)}
}

// isIndicator reports whether line[pos] is a block indicator ("- ", "? ",
// ": ") that starts a node on the same line.
func isIndicator(line []byte, pos int) bool {
	if pos >= len(line) {
		return false
	}
	switch line[pos] {
	case '-', '?', ':':
		return pos+1 == len(line) || line[pos+1] == ' ' || line[pos+1] == '\t'
	}
	return false
}

func isSpaceOrFlowEnd(c byte, inFlow bool) bool {
	return c == ' ' || c == '\t' || (inFlow && (c == ',' || c == ']' || c == '}'))
}

func isBlankLine(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
