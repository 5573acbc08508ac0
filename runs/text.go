package runs

import (
	"github.com/oncesim/once/report/lang"
	"github.com/oncesim/once/scenarios"
)

// Text is a lesson field of sc ("summary", "story", "why.alo") in the
// chosen language; english is the scenario's own text. A scenario from a
// user's file keeps its own words: only the catalog is translated.
func Text(sc *scenarios.Scenario, field, english string) string {
	if !FromCatalog(sc) {
		return english
	}
	return lang.Lesson(sc.Name, field, english)
}
