// Package runs turns single runs of a scenario into what the commands
// print: the command line that reproduces a run, the scenario's headline
// rows, a violation shrunk to a minimal fault plan, the lesson texts in
// the chosen language, and the rendering of a run in every output format.
// The commands in cmd/once only parse flags and call it.
package runs
