package svgtext

import (
	"strings"
	"testing"
)

// Check finds two labels drawn over each other (straight or rotated with
// their arrows) and a label the viewBox clips, and nothing in a clean
// document.
func TestCheck(t *testing.T) {
	doc := func(body string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">` + body + `</svg>`)
	}
	for _, c := range []struct {
		name, body, want string
	}{
		{"apart", `<text x="10" y="20" font-size="10">alpha</text><text x="10" y="40" font-size="10">beta</text>`, ""},
		{"on top", `<text x="10" y="20" font-size="10">alpha</text><text x="20" y="24" font-size="10">beta</text>`, `"alpha" and "beta" overlap`},
		{"centred", `<text x="100" y="20" font-size="10" text-anchor="middle">a long label</text><text x="70" y="20" font-size="10">x</text>`, "overlap"},
		{"inherited size", `<g font-size="30"><text x="10" y="40">big</text></g><text x="10" y="52" font-size="10">small</text>`, "overlap"},
		{"rotated apart", `<text x="100" y="100" font-size="10" text-anchor="middle" transform="rotate(45 100 100)">diagonal label</text><text x="60" y="60" font-size="10" text-anchor="middle">x</text>`, ""},
		{"rotated across", `<text x="100" y="100" font-size="10" text-anchor="middle" transform="rotate(45 100 100)">diagonal label</text><text x="80" y="84" font-size="10" text-anchor="middle">here</text>`, "overlap"},
		{"clipped right", `<text x="380" y="20" font-size="10">too long to fit</text>`, "clipped"},
		{"clipped top", `<text x="10" y="4" font-size="10">up</text>`, "clipped"},
		{"nested frames apart", `<svg x="0" y="0" width="200" height="200" viewBox="0 0 200 200"><text x="10" y="20" font-size="10">left</text></svg><svg x="200" y="0" width="200" height="200" viewBox="0 0 200 200"><text x="10" y="20" font-size="10">right</text></svg>`, ""},
	} {
		problems, err := Check(doc(c.body))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(problems, "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, got, c.want)
		}
	}
	if _, err := Check([]byte("<svg><text>")); err == nil {
		t.Error("a document cut short is accepted")
	}
}

// Width measures digits, capitals and Cyrillic wider than narrow
// punctuation, and bold wider than regular.
func TestWidth(t *testing.T) {
	if !(Width("0000", 10, false) > Width("....", 10, false) && Width("ЖЖ", 10, false) > Width("aa", 10, false) && Width("ab", 10, true) > Width("ab", 10, false)) {
		t.Error("Width does not tell wide characters from narrow ones, or bold from regular")
	}
	if w := Width("abc", 20, false); w != 2*Width("abc", 10, false) {
		t.Errorf("Width does not scale with the font size: %v", w)
	}
}
