package explore

import (
	"errors"
	"strings"

	"github.com/dustin/go-humanize"
)

// ParseBytes reads a positive size such as 512MiB, 2GiB, 1.5GB or 4096
// (go-humanize's ParseBytes: binary and decimal units, any case; a bare
// number is bytes), at most 1024 TiB.
func ParseBytes(s string) (int64, error) {
	n, err := humanize.ParseBytes(strings.TrimSpace(s))
	if err != nil || strings.Contains(strings.ToLower(s), "nan") {
		return 0, errors.New("not a size: want a number with a unit, e.g. 512MiB or 2GiB")
	}
	if n < 1 || n > 1<<50 {
		return 0, errors.New("want a size in [1B, 1024TiB]")
	}
	return int64(n), nil
}

// HumanBytes writes a size in a readable binary unit (313 MiB).
func HumanBytes(n int64) string { return humanize.IBytes(uint64(max(n, 0))) }
