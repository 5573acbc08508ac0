package lang

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// The interface's messages are split into parts, one file per part and
// language (locales/<part>.<lang>.toml). A command reads a few parts (a
// run: its outcome, its framing, its events), so a message is looked up
// in its part alone, and a part's files are parsed the first time one of
// its messages is asked for: parsing every English file cost `once run`
// about a tenth of its CPU before its first event.

// partIndex maps every interface message id to its part, read from the
// English files by scanning their keys (partKeys) rather than parsing
// them; TestPartIndexIsTheParsedIDs holds the scan to the parser.
var partIndex = sync.OnceValue(func() map[string]string {
	files, err := fs.Glob(localesFS, "locales/*."+string(English)+".toml")
	if err != nil || len(files) == 0 {
		panic("lang: no embedded English message files")
	}
	index := map[string]string{}
	for _, file := range files {
		data, err := fs.ReadFile(localesFS, file)
		if err != nil {
			panic("lang: " + err.Error())
		}
		part := strings.TrimSuffix(path.Base(file), "."+string(English)+".toml")
		for _, id := range partKeys(data) {
			index[id] = part
		}
	}
	return index
})

// pluralForms are the keys that make a TOML table one message in its
// plural forms rather than a table of messages (as go-i18n reads them).
var pluralForms = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// partKeys lists the message ids of a go-i18n TOML file from its table
// headers and keys alone: a key's id is its table's name and the key,
// joined by a dot, and a plural form's id is its table's (or its dotted
// key's) name. Multi-line strings are skipped; an id may be listed
// twice.
func partKeys(data []byte) []string {
	var ids []string
	table := ""
	inString := false
	quote := []byte(`"""`)
	for raw := range bytes.Lines(data) {
		line := bytes.TrimSpace(raw)
		if inString {
			inString = bytes.Count(line, quote)%2 == 0
			continue
		}
		switch {
		case len(line) == 0 || line[0] == '#':
			continue
		case line[0] == '[':
			table = strings.ReplaceAll(string(bytes.Trim(line, "[] ")), `"`, "")
			continue
		}
		eq := bytes.IndexByte(line, '=')
		if eq < 0 {
			continue
		}
		key := strings.ReplaceAll(string(bytes.TrimSpace(line[:eq])), `"`, "")
		inString = bytes.Count(line[eq:], quote)%2 == 1
		id := key
		if table != "" {
			id = table + "." + key
		}
		if i := strings.LastIndexByte(id, '.'); i > 0 && pluralForms[id[i+1:]] {
			id = id[:i]
		}
		if len(ids) == 0 || ids[len(ids)-1] != id { // a plural's forms are consecutive
			ids = append(ids, id)
		}
	}
	return ids
}

// partLocalizers holds, per language, a localizer per part, each built
// on first use from the part's English file and the language's own.
var partLocalizers = func() map[Lang]map[string]func() *i18n.Localizer {
	parts := map[string]bool{}
	files, _ := fs.Glob(localesFS, "locales/*."+string(English)+".toml")
	for _, file := range files {
		parts[strings.TrimSuffix(path.Base(file), "."+string(English)+".toml")] = true
	}
	m := map[Lang]map[string]func() *i18n.Localizer{}
	for _, l := range Languages() {
		m[l] = map[string]func() *i18n.Localizer{}
		for part := range parts {
			m[l][part] = sync.OnceValue(func() *i18n.Localizer { return mustLoadPart(part, l) })
		}
	}
	return m
}()

// noMessages is the localizer of an id no part has: it finds nothing, so
// the id renders as itself, as a missing message always has.
var noMessages = sync.OnceValue(func() *i18n.Localizer {
	return i18n.NewLocalizer(i18n.NewBundle(English.Tag()), string(English))
})

// uiLocalizer is the localizer in l that holds the interface message id.
func uiLocalizer(l Lang, id string) *i18n.Localizer {
	parts, ok := partLocalizers[l]
	if !ok {
		return loaded().uiLoc[l]
	}
	part, ok := partIndex()[id]
	if !ok {
		return noMessages()
	}
	return parts[part]()
}

// mustLoadPart parses one part's English file and, for another language,
// its own (a part a language has not translated falls back to English).
func mustLoadPart(part string, l Lang) *i18n.Localizer {
	b := i18n.NewBundle(English.Tag())
	b.RegisterUnmarshalFunc("toml", unmarshalTOML)
	langs := []Lang{English}
	if l != English {
		langs = append(langs, l)
	}
	for _, pl := range langs {
		file := "locales/" + part + "." + string(pl) + ".toml"
		if _, err := fs.Stat(localesFS, file); err != nil && pl != English {
			continue
		}
		mf, err := parseFile(localesFS, file, pl)
		if err != nil {
			panic("lang: embedded message files are invalid: " + err.Error())
		}
		if err := b.AddMessages(pl.Tag(), mf.Messages...); err != nil {
			panic("lang: embedded message files are invalid: " + file + ": " + err.Error())
		}
	}
	return i18n.NewLocalizer(b, string(l))
}
