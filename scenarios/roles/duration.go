package roles

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oncesim/once/sim"
)

// ParseDuration reads a virtual duration: "0", "250", "250ms", "1.5s",
// "5m", "24h". A bare number is ticks (milliseconds).
func ParseDuration(s string) (sim.Time, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		scale  float64
	}{{"ms", 1}, {"s", 1000}, {"m", 60_000}, {"h", 3_600_000}}
	scale := 1.0
	num := s
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, scale = strings.TrimSuffix(s, u.suffix), u.scale
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a duration (want e.g. 250ms, 30s, 5m, 24h)", s)
	}
	if f < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	if f*scale > 1e15 {
		return 0, fmt.Errorf("duration %q is too large", s)
	}
	return sim.Time(f * scale), nil
}
