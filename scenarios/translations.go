package scenarios

import (
	"io/fs"

	"github.com/oncesim/once/scenarios/catalog/i18n"
)

// TranslationsDir is the folder of LessonTranslations' files inside the
// catalog, as a path relative to the repository's scenarios folder.
const TranslationsDir = i18n.Dir

// LessonTranslations returns the embedded translation files of the
// catalog's lesson texts (see package scenarios/catalog/i18n), named
// "double-billing.ro.toml".
func LessonTranslations() fs.FS { return i18n.FS }
