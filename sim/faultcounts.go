package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// MarshalJSON writes the counts as an object keyed by name: every fault
// kind in table order, then the partition and down drops, then the
// interleaving kinds (preempt) only when they happened.
func (f FaultCounts) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	field := func(key string, n int) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, key)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	kinds := FaultChoiceKinds()
	for _, k := range kinds {
		if !k.IsReorder() {
			field(k.String(), f.Of(k))
		}
	}
	field("partition", f.Partition)
	field("down", f.Down)
	for _, k := range kinds {
		if k.IsReorder() && f.Of(k) != 0 {
			field(k.String(), f.Of(k))
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; an unknown key is an error.
func (f *FaultCounts) UnmarshalJSON(data []byte) error {
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
			k, ok := ParseChoiceKind(key)
			if !ok || !k.IsFault() {
				return fmt.Errorf("sim: fault counts: unknown fault %q", key)
			}
			f.ByKind[k] = n
		}
	}
	return nil
}
