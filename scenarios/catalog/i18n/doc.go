// Package i18n embeds the catalog's lesson texts in other languages: one
// go-i18n TOML message file per scenario and language,
// <scenario>.<lang>.toml, with the ids summary, story, watch, fix and
// why.<semantics alias>, a [note] table (each expect row's note, keyed by
// Expectation.RowKey: "idem store=memory · crash=0.2"), a [param] table
// (each parameter's doc, keyed by its name) and a [mark] table (each sweep
// mark's label, keyed by the English label). The English text stays in
// the scenario's YAML, which is the source.
//
// It is a package of its own so that report/lang reads the files without
// importing the scenarios package.
package i18n

import "embed"

// FS holds the translation files, named like "double-billing.ro.toml".
//
//go:embed *.toml
var FS embed.FS

// Dir is the folder of the files, relative to the repository's scenarios
// folder.
const Dir = "catalog/i18n"
