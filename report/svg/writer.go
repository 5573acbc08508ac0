package svg

import "strings"

// The one writer of SVG elements both diagrams use. attrs alternate
// attribute names and values, each written as ` name="value"` in order; the
// values are written as given (coordinates formatted by svgNum, text
// escaped by svgEscape). An empty name writes its value as is: a run of
// attributes prepared once (a halo, an outline), with its leading space.

// element writes a childless element, <tag a="v" …/>, on a line of its own.
func element(b *strings.Builder, tag string, attrs ...string) {
	b.WriteString("<" + tag)
	writeAttrs(b, attrs)
	b.WriteString("/>\n")
}

// textElement writes <text a="v" …>content</text> on a line of its own;
// content is already escaped.
func textElement(b *strings.Builder, content string, attrs ...string) {
	b.WriteString("<text")
	writeAttrs(b, attrs)
	b.WriteString(">" + content + "</text>\n")
}

func writeAttrs(b *strings.Builder, attrs []string) {
	if len(attrs)%2 != 0 {
		panic("svg: attributes come in name, value pairs")
	}
	for i := 0; i < len(attrs); i += 2 {
		if attrs[i] == "" {
			b.WriteString(attrs[i+1])
			continue
		}
		b.WriteString(" " + attrs[i] + `="` + attrs[i+1] + `"`)
	}
}
