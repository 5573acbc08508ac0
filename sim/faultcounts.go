package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// MarshalJSON writes the counts as an object keyed by name: every fault
// kind in table order, then the partition and down drops, then the
// interleaving kinds (preempt) only when they happened.
func (f FaultCounts) MarshalJSON() ([]byte, error) { return builtin.MarshalCounts(f) }

// MarshalCounts writes f as FaultCounts.MarshalJSON does, over r's choice
// kinds.
func (r *Registry) MarshalCounts(f FaultCounts) ([]byte, error) {
	b := []byte{'{'}
	field := func(key string, n int) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, key)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	kinds := r.FaultChoiceKinds()
	for _, k := range kinds {
		if !r.IsReorder(k) {
			field(r.ChoiceName(k), f.Of(k))
		}
	}
	field("partition", f.Partition)
	field("down", f.Down)
	for _, k := range kinds {
		if r.IsReorder(k) && f.Of(k) != 0 {
			field(r.ChoiceName(k), f.Of(k))
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; an unknown key is an error.
func (f *FaultCounts) UnmarshalJSON(data []byte) error { return builtin.UnmarshalCounts(data, f) }

// UnmarshalCounts reads into f what MarshalCounts writes, over r's choice
// kinds.
func (r *Registry) UnmarshalCounts(data []byte, f *FaultCounts) error {
	var m map[string]int
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("sim: fault counts: %w", err)
	}
	*f = FaultCounts{}
	for key, n := range m {
		switch key {
		case "partition":
			f.Partition = n
		case "down":
			f.Down = n
		default:
			k, ok := r.ParseChoiceKind(key)
			if !ok || !r.or().choices[k].fault {
				return fmt.Errorf("sim: fault counts: unknown fault %q", key)
			}
			f.ByKind[k] = n
		}
	}
	return nil
}
