package class

import (
	"strings"
	"testing"
)

// The terminal's QR code is the code's modules, two rows a line, light
// modules drawn (as qrencode -t UTF8 does); the projector's SVG draws one
// square per dark module.
func TestQRDrawsEveryModule(t *testing.T) {
	text := "http://192.168.1.20:8080/?code=k7q2mx"
	bm, err := qrBitmap(text)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteQR(&b, text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != (len(bm)+1)/2 {
		t.Fatalf("%d lines for %d rows of modules", len(lines), len(bm))
	}
	for y, line := range lines {
		runes := []rune(line)
		if len(runes) != len(bm) {
			t.Fatalf("line %d: %d characters for %d modules", y, len(runes), len(bm))
		}
		for x, r := range runes {
			top := !bm[2*y][x]
			bottom := 2*y+1 < len(bm) && !bm[2*y+1][x]
			want := map[[2]bool]rune{{true, true}: '█', {true, false}: '▀', {false, true}: '▄', {false, false}: ' '}[[2]bool{top, bottom}]
			if r != want {
				t.Fatalf("module column %d, rows %d-%d: %q, want %q", x, 2*y, 2*y+1, r, want)
			}
		}
	}
	dark := 0
	for _, row := range bm {
		for _, d := range row {
			if d {
				dark++
			}
		}
	}
	svg, err := qrSVG(text)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg, "h1v1h-1z"); n != dark || dark == 0 {
		t.Errorf("the SVG draws %d squares for %d dark modules", n, dark)
	}
}
