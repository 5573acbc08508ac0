package scenarios

import (
	"embed"
	"io/fs"
)

// The catalog's lesson texts in other languages: one go-i18n TOML message
// file per scenario and language, catalog/i18n/<scenario>.<lang>.toml,
// with the ids summary, story, watch, fix and why.<semantics alias>, a
// [note] table (each expect row's note, keyed by Expectation.RowKey: "idem
// store=memory · crash=0.2"), a [param] table (each parameter's doc,
// keyed by its name) and a [mark] table (each sweep mark's label, keyed by
// the English label). The English text stays in the scenario's YAML, which
// is the source.
//
//go:embed catalog/i18n/*.toml
var translationsFS embed.FS

// TranslationsDir is the folder of LessonTranslations' files inside the
// catalog, as a path relative to the repository's scenarios folder.
const TranslationsDir = "catalog/i18n"

// LessonTranslations returns the embedded translation files of the
// catalog's lesson texts, rooted at their folder (so its entries are
// named "double-billing.ro.toml").
func LessonTranslations() fs.FS {
	sub, err := fs.Sub(translationsFS, TranslationsDir)
	if err != nil {
		panic("scenarios: " + err.Error()) // the folder is embedded: cannot happen
	}
	return sub
}
