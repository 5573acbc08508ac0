package svg

import "strconv"

// The number format the sweep plot shares with the text views of package
// report, which keeps its own copy unexported.

// pctNum formats a rate as a percentage with one decimal.
func pctNum(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }
