package svg

import "strconv"

// The two number formats the sweep plot shares with the text views of
// package report, which keeps its own copies unexported.

// ffmt formats f in the shortest form that reads back as f.
func ffmt(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// pctNum formats a rate as a percentage with one decimal.
func pctNum(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) }
