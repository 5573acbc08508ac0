package sim

// TableView is a read-only view of a node's table (Context.Rows).
type TableView struct{ t *Table }

// Len returns the number of rows.
func (v TableView) Len() int { return v.t.Len() }

// At returns the i-th row in key order.
func (v TableView) At(i int) (int64, Record) { return v.t.At(i) }

// Get returns the row stored under key.
func (v TableView) Get(key int64) (Record, bool) { return v.t.Get(key) }
