package sim

// Record is one row of a Table. Its fields are generic slots a role
// interprets; At is the virtual time the row was written (used for TTLs)
// and is fingerprinted relative to now — except in an age-free table
// (TableSpec.AgeFree), where it is always 0 and no age is fingerprinted.
type Record struct {
	State  int32
	Status int32
	Value  int64
	Aux    int64
	At     Time
}

// Table is a small ordered map from int64 keys to Records. Iteration is in
// key order, so nothing ever depends on map order. The zero value is empty.
type Table struct {
	keys []int64
	rows []Record
	// fp caches the rows' contribution to the world's fingerprint (see
	// Table.rowsHash); 0 means not computed. Every write resets it.
	fp uint64
}

// find returns the position of key, or where it would be inserted: by a
// scan in a small table (a run's tables hold a few keys, and a binary
// search's every probe is a branch no predictor can guess), by binary
// search in a larger one (written out: no closure call per probe).
func (t *Table) find(key int64) (int, bool) {
	keys := t.keys
	if len(keys) <= smallTable {
		i := 0
		for i < len(keys) && keys[i] < key {
			i++
		}
		return i, i < len(keys) && keys[i] == key
	}
	lo, hi := 0, len(keys)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if keys[mid] < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(keys) && keys[lo] == key
}

// smallTable is the size up to which find scans rather than bisects.
const smallTable = 16

// Get returns the row stored under key.
func (t *Table) Get(key int64) (Record, bool) {
	i, ok := t.find(key)
	if !ok {
		return Record{}, false
	}
	return t.rows[i], true
}

// Put stores r under key, replacing any previous row.
func (t *Table) Put(key int64, r Record) {
	t.fp = 0
	i, ok := t.find(key)
	if !ok {
		t.keys = append(t.keys, 0)
		t.rows = append(t.rows, Record{})
		copy(t.keys[i+1:], t.keys[i:])
		copy(t.rows[i+1:], t.rows[i:])
		t.keys[i] = key
	}
	t.rows[i].set(&r)
}

// set copies r into row field by field. r was most often stored a moment
// ago one field at a time (a parameter spilled from its registers), and a
// whole-struct copy reads it back in 16-byte loads that the store buffer
// cannot forward from the narrower stores: a stall on every write.
func (row *Record) set(r *Record) {
	row.Value, row.Aux, row.At = r.Value, r.Aux, r.At
	row.State = r.State
	if row.Status != r.Status { // a branch, so the two 4-byte fields are not read as one 8-byte word
		row.Status = r.Status
	}
}

// Delete removes the row under key, if any.
func (t *Table) Delete(key int64) {
	i, ok := t.find(key)
	if !ok {
		return
	}
	t.fp = 0
	t.keys = append(t.keys[:i], t.keys[i+1:]...)
	t.rows = append(t.rows[:i], t.rows[i+1:]...)
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.keys) }

// At returns the i-th row in key order.
func (t *Table) At(i int) (int64, Record) { return t.keys[i], t.rows[i] }

// Clear removes every row, keeping the capacity.
func (t *Table) Clear() {
	t.keys = t.keys[:0]
	t.rows = t.rows[:0]
	t.fp = 0
}

// copyFrom makes t an independent copy of src, reusing t's capacity.
func (t *Table) copyFrom(src *Table) {
	t.keys = append(t.keys[:0], src.keys...)
	t.rows = append(t.rows[:0], src.rows...)
	t.fp = src.fp
}
