package sim

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// tableModel is the "dumb" reference a Table is checked against: a Go map,
// whose keys are sorted whenever an order is needed.
type tableModel map[int64]Record

func (m tableModel) sortedKeys() []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// drawKey mostly draws from a small range, so that puts overwrite and
// deletes hit, and sometimes from the extremes of int64.
func drawKey(t *rapid.T) int64 {
	return rapid.OneOf(
		rapid.Int64Range(-8, 8),
		rapid.SampledFrom([]int64{-1 << 63, 1<<63 - 1, -1 << 40, 1 << 40}),
	).Draw(t, "key")
}

func drawRecord(t *rapid.T) Record {
	return Record{
		State:  rapid.Int32Range(-3, 3).Draw(t, "state"),
		Status: rapid.Int32Range(0, 500).Draw(t, "status"),
		Value:  rapid.Int64().Draw(t, "value"),
		Aux:    rapid.Int64Range(-5, 5).Draw(t, "aux"),
		At:     Time(rapid.Int64Range(0, 1000).Draw(t, "at")),
	}
}

// TestTableMatchesMap drives a Table and a map with the same random
// sequence of Put, Get, Delete and Clear; after every step the table must
// hold exactly the map's rows, in ascending key order through Len and At.
func TestTableMatchesMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tab Table
		ref := tableModel{}
		t.Repeat(map[string]func(*rapid.T){
			"put": func(t *rapid.T) {
				k, r := drawKey(t), drawRecord(t)
				tab.Put(k, r)
				ref[k] = r
			},
			"get": func(t *rapid.T) {
				k := drawKey(t)
				got, ok := tab.Get(k)
				want, wantOK := ref[k]
				if ok != wantOK || got != want {
					t.Fatalf("Get(%d) = %+v, %v; want %+v, %v", k, got, ok, want, wantOK)
				}
			},
			"delete": func(t *rapid.T) {
				k := drawKey(t)
				tab.Delete(k)
				delete(ref, k)
			},
			"clear": func(t *rapid.T) {
				if rapid.IntRange(0, 9).Draw(t, "clear") != 0 {
					t.Skip("clear only now and then, so tables grow")
				}
				tab.Clear()
				clear(ref)
			},
			"": func(t *rapid.T) {
				keys := ref.sortedKeys()
				if tab.Len() != len(keys) {
					t.Fatalf("Len() = %d, want %d", tab.Len(), len(keys))
				}
				for i, want := range keys {
					k, r := tab.At(i)
					if k != want || r != ref[want] {
						t.Fatalf("At(%d) = %d %+v, want %d %+v", i, k, r, want, ref[want])
					}
				}
			},
		})
	})
}

// TestTableCopyIsIndependent checks copyFrom (used to clone worlds): the
// copy has the same rows, and writes to either side do not show in the
// other.
func TestTableCopyIsIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var src, dst Table
		ref := tableModel{}
		for _, k := range rapid.SliceOfN(rapid.Int64Range(-20, 20), 0, 30).Draw(t, "keys") {
			r := Record{Value: k * 7}
			src.Put(k, r)
			ref[k] = r
		}
		// dst starts with unrelated rows, to check that they are replaced.
		dst.Put(100, Record{Value: 1})
		dst.Put(-100, Record{Value: 2})
		dst.copyFrom(&src)

		src.Put(1000, Record{Value: 3})
		src.Delete(rapid.Int64Range(-20, 20).Draw(t, "deleted"))
		if src.Len() > 0 {
			k, _ := src.At(0)
			src.Put(k, Record{Value: -1})
		}

		keys := ref.sortedKeys()
		if dst.Len() != len(keys) {
			t.Fatalf("copy has %d rows, want %d", dst.Len(), len(keys))
		}
		for i, want := range keys {
			k, r := dst.At(i)
			if k != want || r != ref[want] {
				t.Fatalf("copy At(%d) = %d %+v, want %d %+v", i, k, r, want, ref[want])
			}
		}
	})
}

// TestTableZeroValue checks that the zero Table is empty and usable.
func TestTableZeroValue(t *testing.T) {
	var tab Table
	if tab.Len() != 0 {
		t.Fatalf("zero Table has %d rows", tab.Len())
	}
	if _, ok := tab.Get(0); ok {
		t.Fatal("zero Table found key 0")
	}
	tab.Delete(0)
	tab.Clear()
	tab.Put(0, Record{Value: 42})
	if r, ok := tab.Get(0); !ok || r.Value != 42 {
		t.Fatalf("Get(0) = %+v, %v after Put", r, ok)
	}
}
