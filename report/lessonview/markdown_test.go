package lessonview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/oncesim/once/lesson"
	"github.com/oncesim/once/report/lang"
)

// goldmarkHTML is the oracle: CommonMark with GFM, as the pack rendered its
// pages before markdownHTML.
func goldmarkHTML(t testing.TB, md string) string {
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// packMatrix is a matrix excerpt of the shape the pack shows (aligned
// columns, code spans, an escaped bar), standing in for once matrix.
func packMatrix(scenario string) (string, error) {
	return "Seeds 1..100 on each row; 95 % intervals.\n\n" +
		"| scenario | row | runs | lost | effects/op | expected | note |\n" +
		"|---|---|--:|--:|--:|---|---|\n" +
		"| " + scenario + " | `amo` | 100 | 34,0 % (25,5–43,7) | 0.912 | ≤1 loss | a \\| b |\n" +
		"| " + scenario + " | `idem store=memory · crash=0.2` | 100 | 0,0 % | 1.000 | =1 | **fix** & \"q\" \\<ok> |\n", nil
}

// TestMarkdownMatchesGoldmarkOnThePack renders every page of the pack —
// both editions, both tracks, in en, ro and ru — with markdownHTML and with
// goldmark, and wants the same bytes.
func TestMarkdownMatchesGoldmarkOnThePack(t *testing.T) {
	defer lang.Set(lang.Current())
	c, err := lesson.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.AllTracks().ForStudent("ada")
	if err != nil {
		t.Fatal(err)
	}
	var views []*StepView
	for i := range s.Steps {
		v, err := Build(s, i)
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	pages := 0
	for _, l := range []string{"en", "ro", "ru"} {
		lang.Set(lang.Lang(l))
		files, err := Pack(views, packMatrix, false, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f.Path, ".md") {
				continue
			}
			pages++
			if got, want := markdownHTML(string(f.Data)), goldmarkHTML(t, string(f.Data)); got != want {
				t.Errorf("%s %s: differs from goldmark at byte %d:\n got: %q\nwant: %q", l, f.Path, diffAt(got, want), around(got, diffAt(got, want)), around(want, diffAt(got, want)))
			}
		}
	}
	if pages < 3*(2*len(views)+3) {
		t.Fatalf("only %d pages compared", pages)
	}
}

// TestMarkdownMatchesGoldmarkOnShapes holds the renderer to goldmark on the
// shapes the pack writes, one by one.
func TestMarkdownMatchesGoldmarkOnShapes(t *testing.T) {
	for _, md := range markdownShapes {
		if got, want := markdownHTML(md), goldmarkHTML(t, md); got != want {
			t.Errorf("%q:\n got: %q\nwant: %q", md, got, want)
		}
	}
}

var markdownShapes = []string{
	"# Title\n\nA paragraph\nwith a soft break and a hard one  \nhere.\n",
	"## `code` and **bold** and *em* and [a link](x.md) and ![alt **x**](../d/a b.svg)\n",
	"1. First question?\n   - a) one\n   - b) two\n2. Second\n   - a) `x`\n",
	"1. Answer  \n   **Answer: c) 2**  \n   why (amo): because\n\n2. Next  \n   **Answer: a) 1**\n",
	"- [Student](student/index.md) ([HTML](student/index.html))\n- [Teacher](teacher/index.md)\n",
	"```sh\nonce run x --seed 3 <a> & \"b\"\n```\n\nafter\n",
	"| a | b |\n|---|--:|\n| `x` | 1 |\n| y \\| z | 2 |\n\ntext\n",
	"*Course text: four variants · about 9 min*\n",
	"text with 5 * 3 and a*b and ** alone\n",
	"3. starts at three\n4. four\n",
}

func diffAt(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	lo, hi := max(0, i-60), min(len(s), i+60)
	return s[lo:hi]
}

// FuzzMarkdown: whatever the input, markdownHTML returns, and every tag it
// opens it closes, in order.
func FuzzMarkdown(f *testing.F) {
	for _, md := range markdownShapes {
		f.Add(md)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := markdownHTML(md)
		var stack []string
		for i := 0; i < len(out); i++ {
			if out[i] != '<' {
				continue
			}
			j := strings.IndexAny(out[i:], " >")
			if j < 0 {
				t.Fatalf("unclosed tag in %q", out)
			}
			name := out[i+1 : i+j]
			switch {
			case name == "br" || name == "img":
			case strings.HasPrefix(name, "/"):
				if len(stack) == 0 || stack[len(stack)-1] != name[1:] {
					t.Fatalf("%q closes %s, open: %v", md, name, stack)
				}
				stack = stack[:len(stack)-1]
			default:
				stack = append(stack, name)
			}
		}
		if len(stack) != 0 {
			t.Fatalf("%q leaves %v open: %q", md, stack, out)
		}
	})
}
