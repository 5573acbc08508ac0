package layout

// Layers ranks the module's packages, lowest first: a package imports
// only packages of its own rank or below. Each entry is an import path
// relative to the module, and names its subpackages too unless a longer
// entry names them; the layer a newcomer's package belongs to is the
// first question CONTRIBUTING asks.
var Layers = [][]string{
	{"internal", "scenarios/catalog/i18n"}, // no project imports
	{"sim"},                                // the engine: standard library only
	{"sim/search"},                         // the explorer's search and the shrinker: sim only
	{"network"},                            // links and fates
	{"scenarios/roles"},                    // the roles, by family
	{"scenarios"},                          // format, loading, catalog, plans, expectations
	{"report/lang", "report", "batch"},     // the outcome vocabulary, renderers; the batch runner
	{"runs"},                               // the run service
	{"explore", "shard", "matrix", "sweep", // the features, each in one place
		"lab", "lesson", "live", "tui", "report/lessonview", "class",
		"brokers"}, // live mode over real brokers: uses live's Decider
	{"cmd", "examples"}, // flags → one call
}
