//go:build !unix

package fileio

// openNoBlock: no such flag here; the check before the open stands alone.
const openNoBlock = 0
