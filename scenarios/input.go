package scenarios

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Limits on the files a user hands to once (scenario files and fault
// plans). They are checked on the raw bytes before any parser runs, so no
// input — a 200 KB bracket bomb, /dev/urandom, a 50 MB file — costs more
// than a few megabytes or more than a moment.
const (
	// MaxScenarioFileBytes is the largest scenario file Load accepts. The
	// largest catalog scenario is under 7 KB; 1 MiB leaves room for long
	// prose (MaxScenarioNodes bounds the values, which cost the memory).
	MaxScenarioFileBytes = 1 << 20

	// MaxPlanFileBytes is the largest plan file ParsePlan accepts and
	// WritePlan writes. A run within the default event budget records at
	// most about 100 000 faults (about 8 MB of plan lines); 16 MiB holds
	// them with room to spare, and a plan is read line by line.
	MaxPlanFileBytes = 16 << 20

	// MaxNestingDepth is the deepest nesting of mappings, sequences and
	// flow collections ([ and {) a scenario file may have. The format
	// itself needs five (expect → row → faults → a probability); the limit
	// stops a nested-bracket bomb before the YAML parser sees it.
	MaxNestingDepth = 16

	// MaxScenarioNodes is the largest number of values, lists and
	// mappings a scenario file may hold: the largest catalog scenario
	// holds about 330. The YAML parser costs one to two kilobytes per
	// value, so the limit keeps it within about 20 MB.
	MaxScenarioNodes = 10_000
)

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8
// file. It is accepted there (and skipped), and rejected anywhere else.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// inputProblem is a defect of a file's raw bytes, at a 1-based line and
// column (columns count characters, as the YAML parser does).
type inputProblem struct {
	line, col int
	msg       string
}

// stripBOM removes a leading byte-order mark.
func stripBOM(data []byte) []byte { return bytes.TrimPrefix(data, utf8BOM) }

// checkInput checks what every input file must be before it is parsed:
// text (UTF-8, no NUL byte, no control character but tab, line feed and
// carriage return, no byte-order mark after the start) and at most limit
// bytes. what names the file's kind in messages ("scenario file"). data
// must already be without its leading byte-order mark.
func checkInput(data []byte, limit int, what string) *inputProblem {
	line, col := 1, 1
	for i := 0; i < len(data) && i < limit; {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return &inputProblem{line, col, fmt.Sprintf("byte 0x%02x is not UTF-8: a %s is UTF-8 text", data[i], what)}
		case r == 0:
			return &inputProblem{line, col, fmt.Sprintf("a NUL byte: a %s is text, and this is not", what)}
		case r == '\uFEFF':
			return &inputProblem{line, col, "a byte-order mark (U+FEFF) after the start of the file: remove it"}
		case r == '\n':
			line, col = line+1, 1
			i += size
			continue
		case r != '\t' && r != '\r' && (r < 0x20 || (r >= 0x7F && r <= 0x9F)):
			return &inputProblem{line, col, fmt.Sprintf("control character U+%04X: a %s holds printable text only", r, what)}
		}
		i += size
		col++
	}
	if len(data) > limit {
		return &inputProblem{line, col, fmt.Sprintf("the file is larger than the limit of %s for a %s", sizeText(limit), what)}
	}
	return nil
}

// sizeText renders a byte count in binary units: "1 MiB", "16 MiB".
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
