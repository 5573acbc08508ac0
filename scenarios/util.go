package scenarios

import "sort"

// sortedPairs returns the pairs of m as key=value, sorted.
func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
