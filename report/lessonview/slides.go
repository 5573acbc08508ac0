package lessonview

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/oncesim/once/report/lang"
)

// The slides' page: 16:9 at 1920×1080, readable from the back of a room.
const (
	SlideWidth  = 1920
	SlideHeight = 1080
	// MinSlideText is the smallest text a slide shows, in CSS pixels at
	// 1920×1080 (the SVG's own smallest text is scaled up to at least it).
	MinSlideText = 18.0
)

var (
	svgRoot     = regexp.MustCompile(`(?s)<svg xmlns="http://www.w3.org/2000/svg" width="([0-9.]+)" height="([0-9.]+)" viewBox="[^"]*" font-family="([^"]*)">\n(.*)</svg>\s*$`)
	svgFontSize = regexp.MustCompile(`font-size(="|=\\"|:\s*)([0-9.]+)`)
)

// Slides are the diagrams as slides: one 16:9 HTML page per screenful
// of each panel (a tall panel continues on the next page), the SVG
// inline and scaled to the page's width so that its smallest text is at
// least MinSlideText pixels; slides/index.html lists them.
func Slides(views []*StepView, diagrams map[string][]Diagram) ([]PackFile, error) {
	var files []PackFile
	var index strings.Builder
	fmt.Fprintf(&index, "<h1>%s</h1>\n", html.EscapeString(lang.T("lesson.slides")))
	for _, v := range views {
		fmt.Fprintf(&index, "<h2>%s</h2>\n<ol>\n", html.EscapeString(lang.Tf("lesson.step_of", map[string]any{"N": v.Number, "Total": v.Total})+" · "+v.Title))
		for _, d := range diagrams[v.ID] {
			pages, err := slidePages(d)
			if err != nil {
				return nil, fmt.Errorf("lesson slides: %s: %w", d.File, err)
			}
			for k, p := range pages {
				name := fmt.Sprintf("%s.%d.html", strings.TrimSuffix(d.File, ".svg"), k+1)
				files = append(files, PackFile{Path: "slides/" + name, Data: p})
				fmt.Fprintf(&index, "<li><a href=\"%s\">%s (%d/%d)</a></li>\n", name, html.EscapeString(d.Caption), k+1, len(pages))
			}
		}
		index.WriteString("</ol>\n")
	}
	files = append(files, PackFile{Path: "slides/index.html", Data: slidePage(lang.T("lesson.slides"), index.String(), false)})
	return files, nil
}

// slidePages cuts one diagram into 16:9 pages.
func slidePages(d Diagram) ([][]byte, error) {
	m := svgRoot.FindSubmatch(d.SVG)
	if m == nil {
		return nil, fmt.Errorf("not a panel of report/svg")
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	scale := min(SlideWidth/w, 3.0)
	// The page's width sets the scale; text the scale leaves under
	// MinSlideText is set larger in the slide's copy of the SVG.
	floor := math.Ceil(MinSlideText/scale*10) / 10
	body := svgFontSize.ReplaceAllFunc(m[4], func(f []byte) []byte {
		sub := svgFontSize.FindSubmatch(f)
		v, err := strconv.ParseFloat(string(sub[2]), 64)
		if err != nil || v >= floor {
			return f
		}
		return []byte("font-size" + string(sub[1]) + strconv.FormatFloat(floor, 'f', -1, 64))
	})
	viewW := SlideWidth / scale
	viewH := SlideHeight / scale
	step := viewH * 0.9 // each page repeats the last tenth of the one before
	var out [][]byte
	for y := 0.0; ; y += step {
		svg := fmt.Sprintf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"%s %s %s %s\" font-family=\"%s\">\n%s</svg>\n",
			SlideWidth, SlideHeight, num((w-viewW)/2), num(y), num(viewW), num(viewH), m[3], body)
		out = append(out, slidePage(d.Caption, svg, true))
		if y+viewH >= h {
			break
		}
	}
	return out, nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// slidePage is one 16:9 page: nothing loaded from the network.
func slidePage(title, body string, slide bool) []byte {
	var b bytes.Buffer
	style := "body { font-family: sans-serif; font-size: 24px; margin: 2rem; }"
	if slide {
		style = "html, body { margin: 0; background: #fff; } body { width: 1920px; height: 1080px; overflow: hidden; } svg { display: block; }"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n%s</body>\n</html>\n",
		lang.Current(), html.EscapeString(title), style, body)
	return b.Bytes()
}
