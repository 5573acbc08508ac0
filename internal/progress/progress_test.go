package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestBarDrawsOnlyOnATerminal(t *testing.T) {
	var w bytes.Buffer
	if IsTerminal(&w) || Bar(&w, "matrix") != nil {
		t.Fatal("a buffer is not a terminal: no bar")
	}
	draw := bar(&w, "matrix")
	draw(15, 30)
	if got := w.String(); !strings.HasPrefix(got, "\r\033[Kmatrix ["+strings.Repeat("█", 15)+strings.Repeat("·", 15)+"] 15/30 runs · ") {
		t.Errorf("bar = %q", got)
	}
	w.Reset()
	draw(30, 30)
	if w.String() != "\r\033[K" {
		t.Errorf("a finished bar is erased, got %q", w.String())
	}
}
