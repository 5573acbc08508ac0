package svgtext

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A Label is one <text> element of a document as drawn: its content and
// its box (four corners, in the coordinates of the <svg> that holds it;
// rotated with the text).
type Label struct {
	Text    string
	Size    float64 // its font size
	Frame   int     // the <svg> that holds it: an index into Labels' viewBoxes
	Corners [4][2]float64
}

// tolerance is how far (pixels) two boxes may reach into each other, or a
// box past the viewBox, before it counts: rounding, not layout.
const tolerance = 0.5

// Check measures every <text> of an SVG document (Width for its width,
// the font's ascent and descent for its height, its text-anchor and its
// rotate() transform as drawn; font-size, font-weight and text-anchor
// inherited from <g> and <svg>) and returns one line per problem: two
// labels of one <svg> whose boxes overlap, a label that runs out of the
// viewBox of the <svg> that holds it (clipped when drawn). Nil when the
// document reads cleanly; an error when it is not well-formed XML.
func Check(doc []byte) ([]string, error) {
	labels, frames, err := Labels(doc)
	if err != nil {
		return nil, err
	}
	var problems []string
	for i, a := range labels {
		v := frames[a.Frame]
		x0, y0, x1, y1 := bounds(a.Corners)
		if x0 < v[0]-tolerance || y0 < v[1]-tolerance || x1 > v[0]+v[2]+tolerance || y1 > v[1]+v[3]+tolerance {
			problems = append(problems, fmt.Sprintf("%q is clipped: its box %.1f,%.1f–%.1f,%.1f runs out of the viewBox %g %g %g %g", a.Text, x0, y0, x1, y1, v[0], v[1], v[2], v[3]))
		}
		for _, b := range labels[:i] {
			if b.Frame == a.Frame && overlap(a.Corners, b.Corners) {
				problems = append(problems, fmt.Sprintf("%q and %q overlap", b.Text, a.Text))
			}
		}
	}
	return problems, nil
}

// Labels are the document's texts as Check measures them, and the
// viewBoxes (x, y, width, height) of its <svg> elements, by frame.
func Labels(doc []byte) ([]Label, [][4]float64, error) {
	type style struct {
		size   float64
		bold   bool
		anchor string
		frame  int
	}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	stack := []style{{size: 16, anchor: "start", frame: -1}}
	var frames [][4]float64
	var labels []Label
	var text *Label
	var content strings.Builder
	var textStyle style
	var tx, ty, rot, rcx, rcy float64
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("svgtext: %w", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			s := stack[len(stack)-1]
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			if v, ok := attr["font-size"]; ok {
				if f, err := strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64); err == nil {
					s.size = f
				}
			}
			if v, ok := attr["font-weight"]; ok {
				s.bold = v == "bold" || v == "700" || v == "800" || v == "900"
			}
			if v, ok := attr["text-anchor"]; ok {
				s.anchor = v
			}
			if tok.Name.Local == "svg" {
				w, _ := strconv.ParseFloat(attr["width"], 64)
				h, _ := strconv.ParseFloat(attr["height"], 64)
				box := [4]float64{0, 0, w, h}
				if f := strings.Fields(strings.ReplaceAll(attr["viewBox"], ",", " ")); len(f) == 4 {
					for k := range box {
						box[k], _ = strconv.ParseFloat(f[k], 64)
					}
				}
				frames = append(frames, box)
				s.frame = len(frames) - 1
			}
			stack = append(stack, s)
			if tok.Name.Local == "text" && s.frame >= 0 {
				text, textStyle = &Label{Frame: s.frame}, s
				content.Reset()
				tx, _ = strconv.ParseFloat(attr["x"], 64)
				ty, _ = strconv.ParseFloat(attr["y"], 64)
				rot, rcx, rcy = parseRotate(attr["transform"])
			}
		case xml.CharData:
			if text != nil {
				content.Write(tok)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if tok.Name.Local != "text" || text == nil {
				continue
			}
			text.Text = content.String()
			if strings.TrimSpace(text.Text) != "" {
				s := textStyle
				w := Width(text.Text, s.size, s.bold)
				x0 := tx
				switch s.anchor {
				case "middle":
					x0 -= w / 2
				case "end":
					x0 -= w
				}
				y0, y1 := ty-0.76*s.size, ty+0.22*s.size
				corners := [4][2]float64{{x0, y0}, {x0 + w, y0}, {x0 + w, y1}, {x0, y1}}
				if rot != 0 {
					c, sn := math.Cos(rot*math.Pi/180), math.Sin(rot*math.Pi/180)
					for k, p := range corners {
						dx, dy := p[0]-rcx, p[1]-rcy
						corners[k] = [2]float64{rcx + dx*c - dy*sn, rcy + dx*sn + dy*c}
					}
				}
				text.Corners, text.Size = corners, s.size
				labels = append(labels, *text)
			}
			text = nil
		}
	}
	return labels, frames, nil
}

// parseRotate reads "rotate(a cx cy)" (or "rotate(a)"): the angle in
// degrees and its centre; zeros for any other transform.
func parseRotate(t string) (a, cx, cy float64) {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "rotate(") || !strings.HasSuffix(t, ")") {
		return 0, 0, 0
	}
	f := strings.Fields(strings.ReplaceAll(t[len("rotate("):len(t)-1], ",", " "))
	v := make([]float64, 3)
	for k := 0; k < len(f) && k < 3; k++ {
		v[k], _ = strconv.ParseFloat(f[k], 64)
	}
	return v[0], v[1], v[2]
}

func bounds(c [4][2]float64) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range c {
		x0, x1 = math.Min(x0, p[0]), math.Max(x1, p[0])
		y0, y1 = math.Min(y0, p[1]), math.Max(y1, p[1])
	}
	return
}

// overlap reports whether two rectangles (corners in order) reach more
// than tolerance into each other: separating axes, the edges' normals.
func overlap(a, b [4][2]float64) bool {
	for _, poly := range [][4][2]float64{a, b} {
		for k := 0; k < 2; k++ {
			ex, ey := poly[k+1][0]-poly[k][0], poly[k+1][1]-poly[k][1]
			l := math.Hypot(ex, ey)
			if l == 0 {
				continue
			}
			nx, ny := -ey/l, ex/l
			amin, amax := project(a, nx, ny)
			bmin, bmax := project(b, nx, ny)
			if math.Min(amax, bmax)-math.Max(amin, bmin) <= tolerance {
				return false
			}
		}
	}
	return true
}

func project(c [4][2]float64, nx, ny float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range c {
		d := p[0]*nx + p[1]*ny
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return
}

// Overlap reports whether two label boxes reach into each other (more
// than rounding): what Check fails on, for a layout to test its
// candidates with.
func Overlap(a, b [4][2]float64) bool { return overlap(a, b) }
