// Package report renders outcomes and traces: text tables (lipgloss), JSON,
// a text timeline and Mermaid sequence diagrams. Every renderer reads the
// trace or the checker's outcome and writes to an io.Writer; none opens a
// file or looks inside a running node.
package report
