package explore

import "testing"

func TestParseBytes(t *testing.T) {
	good := map[string]int64{"512MiB": 512 << 20, "2GiB": 2 << 30, "2gib": 2 << 30, "1.5GB": 1_500_000_000, "4096": 4096, "64 KiB": 64 << 10, "1B": 1}
	for in, want := range good {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "GiB", "-1GiB", "0", "2XB", "NaN", "1e30"} {
		if got, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", in, got)
		}
	}
}
