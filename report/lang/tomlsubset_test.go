package lang

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	lessoni18n "github.com/oncesim/once/scenarios/catalog/i18n"
)

// tomlFiles are every message file the binary embeds: the interface's and
// the lessons'.
func tomlFiles(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, fsys := range []fs.FS{localesFS, lessoni18n.FS} {
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".toml") {
				return err
			}
			data, err := fs.ReadFile(fsys, path)
			out[path] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 100 {
		t.Fatalf("%d message files found, want the interface's and the lessons'", len(out))
	}
	return out
}

// Every embedded message file reads the same with the subset parser as
// with a full TOML parser.
func TestTOMLSubsetReadsAsTOML(t *testing.T) {
	for path, data := range tomlFiles(t) {
		var want, got interface{}
		if err := toml.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: toml: %v", path, err)
		}
		if err := unmarshalTOML(data, &got); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the subset parser reads it differently", path)
		}
	}
}

// What the subset refuses, with the line it names.
func TestTOMLSubsetRefuses(t *testing.T) {
	cases := map[string]string{
		"n = 1\n":                       "line 1: only string values",
		"a = \"x\"\na = \"y\"\n":        "line 2: key a defined twice",
		"[a]\nb = \"x\"\n[a]\n":         "line 3: table a defined twice",
		"a = \"x\"\n[a.b]\n":            "line 2: key a is a string",
		"a = \"unterminated\n":          "line 1: newline in a one-line string",
		"a = \"\\q\"\n":                 "line 1: bad escape \\q",
		"[[a]]\n":                       "arrays of tables",
		"a = \"x\" b\n":                 "line 1: unexpected 'b'",
		"a.b.c = \"x\"\n[a.b]\n":        "line 2: table a.b already defined by dotted keys",
		"a = \"\"\"x\n\n\n":             "unterminated string",
		"a = \"\"\"\"\"\"\"\"\"\n":      "more than five quotes",
		"\"\\u0000\" = \"x\"\n":         "NUL",
		"a = \"\\uD800\"\n":             "not a character",
		"a = \"x\" # bell \a\n":         "control character",
		"key\n":                         "want = after the key",
		"[a\n":                          "want ] to close",
		"= \"x\"\n":                     "want a key",
		"a = \"\"\"x\\  y\"\"\"\n":      "blanks that do not end the line",
		"a = 'x\ny'\n":                  "newline in a one-line string",
		"a = \"tab\tok\"\nb = \"\x01\"": "line 2: control character",
	}
	for src, want := range cases {
		var v interface{}
		err := unmarshalTOML([]byte(src), &v)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
}

// The forms the subset reads, each as TOML reads it.
func TestTOMLSubsetForms(t *testing.T) {
	src := "# comment\r\n" +
		"bare-key_1 = \"a\\tb\\u00e9\\U0001F600 \\\"q\\\" \\\\\" # after\n" +
		"\"quoted key\" = 'literal \\n'\n" +
		"ml = \"\"\"\nline one\nline two \\\n   joined\"\"\"\n" +
		"ml2 = '''\nraw \\ text'''\n" +
		"quotes = \"\"\"one \"\" two\"\"\"\"\"\n" +
		"dotted.key = \"d\"\n" +
		"[claim.short]\n" +
		"one = \"{{.N}} op\"\n" +
		"other = \"{{.N}} ops\"\n" +
		"[ \"spaced\" . inner ]\n" +
		"x = \"\"\n"
	var got, want interface{}
	if err := unmarshalTOML([]byte(src), &got); err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal([]byte(src), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

// Whatever the subset accepts, TOML reads the same: the subset never
// gives a file a meaning TOML would not.
func FuzzTOMLSubset(f *testing.F) {
	for _, data := range tomlFiles(f) {
		if len(data) < 4096 {
			f.Add(data)
		}
	}
	f.Add([]byte("a = \"\"\"x\"\"\"\"\"\n[b.c]\nd = 'e'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got interface{}
		if err := unmarshalTOML(data, &got); err != nil {
			return
		}
		var want interface{}
		if err := toml.Unmarshal(data, &want); err != nil {
			t.Fatalf("the subset accepts what TOML refuses (%v): %q", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read differently: %q\nsubset %#v\ntoml   %#v", data, got, want)
		}
	})
}
