package lang

import (
	"strings"
	"testing"
	"testing/fstest"
)

func uiFS() fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, l := range Languages() {
		fsys["locales/core."+string(l)+".toml"] = &fstest.MapFile{Data: []byte("[explain]\nstory = \"" + string(l) + "\"\n")}
	}
	return fsys
}

// The convention's [why] table is go-i18n's nested form: its keys become
// the ids why.amo, why.alo, …
func TestLoadNestedWhy(t *testing.T) {
	lessons := fstest.MapFS{"demo.ro.toml": &fstest.MapFile{Data: []byte(`summary = "rezumat"
[why]
amo = "de ce amo"
alo = """
de ce alo
"""
`)}}
	m, err := load(uiFS(), lessons)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, msg := range m.lessonMsgs[Romanian]["demo"] {
		got = append(got, msg.ID+"="+msg.Other)
	}
	want := "summary=rezumat why.alo=de ce alo\n why.amo=de ce amo"
	if strings.Join(sortedCopy(got), " ") != want {
		t.Errorf("ids %q, want %q", strings.Join(sortedCopy(got), " "), want)
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	cases := map[string]string{
		"demo.toml":    `summary = "x"`,                    // no language
		"demo.en.toml": `summary = "x"`,                    // English lives in the YAML
		"demo.de.toml": `summary = "x"`,                    // not a language of once
		"demo.ro.toml": "summary = \"x\"\nsummary = \"y\"", // invalid TOML
	}
	for name, data := range cases {
		if _, err := load(uiFS(), fstest.MapFS{name: &fstest.MapFile{Data: []byte(data)}}); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
	}
}

// Interface messages split over several files per language are all
// loaded, and an id defined in two of them is refused, naming both files.
func TestLoadSplitUIFiles(t *testing.T) {
	fsys := uiFS()
	for _, l := range Languages() {
		fsys["locales/tui."+string(l)+".toml"] = &fstest.MapFile{Data: []byte("[tui]\nhelp = \"" + string(l) + "\"\n")}
	}
	m, err := load(fsys, fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	if got := messageIDs(m.uiMsgs[Russian]); strings.Join(got, " ") != "explain.story tui.help" {
		t.Errorf("ids %q, want both files' ids", got)
	}
	fsys["locales/lesson.ro.toml"] = &fstest.MapFile{Data: []byte("[tui]\nhelp = \"again\"\n")}
	_, err = load(fsys, fstest.MapFS{})
	if err == nil || !strings.Contains(err.Error(), "locales/tui.ro.toml") || !strings.Contains(err.Error(), "already defined in locales/lesson.ro.toml") {
		t.Errorf("duplicate id: error %v, want one naming both files", err)
	}
}
