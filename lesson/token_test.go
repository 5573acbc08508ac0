package lesson

import (
	"regexp"
	"strings"
	"testing"
)

const testKey = "test-class-key-0123456789"

// A token is the name's HMAC under the key, in four groups of four: the
// same name and key give the same token, another name or key another
// one, and a student types it in any case, with or without dashes.
func TestToken(t *testing.T) {
	tok := Token(testKey, "ada")
	if !regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$`).MatchString(tok) {
		t.Fatalf("token %q: want four groups of four from the alphabet", tok)
	}
	if Token(testKey, " ada ") != tok || Token(testKey, "Ada") == tok || Token(testKey+"x", "ada") == tok {
		t.Error("a token depends on the trimmed name and the key, and on nothing else")
	}
	for _, typed := range []string{tok, strings.ToUpper(tok), strings.ReplaceAll(tok, "-", ""), strings.ReplaceAll(tok, "-", " ")} {
		if got, err := ParseToken(typed); err != nil || got != tok {
			t.Errorf("ParseToken(%q) = %q, %v; want %q", typed, got, err, tok)
		}
	}
	if !ValidToken(testKey, "ada", tok) || ValidToken(testKey, "bogdan", tok) || ValidToken("another-key-0123456789", "ada", tok) {
		t.Error("ValidToken accepts a token only for its name under its key")
	}
}

// The check character catches every single wrong character and every
// swap of two neighbours, over many names: a mistyped token is refused
// when the student starts, not graded as a stranger's.
func TestTokenCheckCatchesTypos(t *testing.T) {
	for i := 0; i < 200; i++ {
		tok := strings.ReplaceAll(Token(testKey, "student-"+strings.Repeat("x", i)), "-", "")
		for p := 0; p < len(tok); p++ {
			for _, c := range tokenAlphabet {
				if byte(c) == tok[p] {
					continue
				}
				typo := tok[:p] + string(c) + tok[p+1:]
				if _, err := ParseToken(typo); err == nil {
					t.Fatalf("%s → %s: a wrong character at %d accepted", tok, typo, p)
				}
			}
			if p+1 < len(tok) && tok[p] != tok[p+1] {
				swap := tok[:p] + string(tok[p+1]) + string(tok[p]) + tok[p+2:]
				if _, err := ParseToken(swap); err == nil {
					t.Fatalf("%s → %s: a swap at %d accepted", tok, swap, p)
				}
			}
		}
	}
}

// Issued seeds derive from the token, practice seeds from the name: the
// same name gets other runs under another key, and the course's seeds
// otherwise.
func TestIssuedSeeds(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.ForIssued("ada", Token(testKey, "ada"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.ForIssued("ada", Token("another-class-key-0123456789", "ada"))
	p, _ := c.ForStudent("ada")
	same := 0
	for i := range a.Steps {
		if a.Steps[i].Token != Token(testKey, "ada") || a.Steps[i].Student != "ada" || p.Steps[i].Token != "" {
			t.Errorf("step %d: token %q, student %q, practice token %q", i+1, a.Steps[i].Token, a.Steps[i].Student, p.Steps[i].Token)
		}
		if a.Steps[i].Runs[0].Seed == b.Steps[i].Runs[0].Seed || a.Steps[i].Runs[0].Seed == p.Steps[i].Runs[0].Seed {
			same++
		}
	}
	if same > 1 {
		t.Errorf("%d of %d steps share a seed across keys or with practice", same, len(a.Steps))
	}
	if _, err := c.ForIssued("ada", "abc"); err == nil {
		t.Error("a malformed token accepted")
	}
}

// Escape keeps every printable rune of any script and escapes the rest.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Ștefan Юлия":            "Ștefan Юлия",
		"\x1b]0;pwned\x07":       `\x1b]0;pwned\a`,
		"a\tb\nc\u200bd\\":       `a\tb\nc\u200bd\\`,
		"bad\xffutf8":            `bad\xffutf8`,
		"\u202eevil\u202c right": `\u202eevil\u202c right`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

// The course version is stable within a build and names the course.
func TestVersion(t *testing.T) {
	v, err := Version()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^course-[0-9a-f]{16}$`).MatchString(v) {
		t.Errorf("version %q", v)
	}
	again, _ := computeVersion()
	if again != v {
		t.Errorf("version %s then %s", v, again)
	}
	saved := versionSources
	defer func() { versionSources = saved }()
	versionSources = [][]byte{append([]byte("# edited\n"), courseYAML...)}
	if edited, _ := computeVersion(); edited == v {
		t.Error("an edited course keeps the version")
	}
}
