package class

import (
	"fmt"
	"io"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// qrBitmap is the QR code of text (error correction M), its quiet zone
// included: true for a dark module.
func qrBitmap(text string) ([][]bool, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("class: QR code: %w", err)
	}
	return q.Bitmap(), nil
}

// WriteQR draws the QR code of text on a terminal, two modules a
// character (half blocks), the way qrencode -t UTF8 does: the light
// modules and the quiet zone drawn, the dark ones left to the terminal's
// dark background — dark on light once on screen.
func WriteQR(w io.Writer, text string) error {
	bm, err := qrBitmap(text)
	if err != nil {
		return err
	}
	light := func(y, x int) bool { return y < len(bm) && !bm[y][x] }
	var b strings.Builder
	for y := 0; y < len(bm); y += 2 {
		for x := range bm[y] {
			switch top, bottom := light(y, x), light(y+1, x); {
			case top && bottom:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bottom:
				b.WriteRune('▄')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// qrSVG is the QR code of text as an inline SVG, for the projector.
func qrSVG(text string) (string, error) {
	bm, err := qrBitmap(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="100%%" height="100%%" fill="#fff"/><path fill="#000" d="`, len(bm), len(bm))
	for y, row := range bm {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}
