package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// byteUnits are the units a size flag accepts: binary (KiB = 1024) and
// decimal (KB = 1000), any case; a bare number is bytes.
var byteUnits = []struct {
	name string
	size int64
}{
	{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
	{"tb", 1e12}, {"gb", 1e9}, {"mb", 1e6}, {"kb", 1e3}, {"b", 1},
}

// parseBytes reads a positive size such as 512MiB, 2GiB, 1.5GB or 4096.
func parseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	size := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.name) {
			t, size = strings.TrimSpace(strings.TrimSuffix(t, u.name)), u.size
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("not a size: want a number with a unit, e.g. 512MiB or 2GiB")
	}
	bytes := n * float64(size)
	if bytes < 1 || bytes > 1<<50 {
		return 0, fmt.Errorf("want a size in [1B, 1024TiB]")
	}
	return int64(bytes), nil
}

// humanBytes writes a size rounded to a readable binary unit (312.5 MiB).
func humanBytes(n int64) string {
	for _, u := range byteUnits[:4] {
		if n >= u.size {
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), strings.Replace(strings.ToUpper(u.name), "I", "i", 1))
		}
	}
	return fmt.Sprintf("%d B", n)
}
