package svg

import (
	"sort"
	"strconv"
)

// The few number and key formats the sweep plot shares with the text
// views of package report, which keeps its own copies unexported.

// ffmt formats f in the shortest form that reads back as f.
func ffmt(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// pctNum formats a rate as a percentage with one decimal.
func pctNum(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
