package fileio

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// OutputFlags are the flags that name a file once writes (a report, a
// shard, a plan, a lesson result, a profile).
var OutputFlags = []string{"out", "save", "result", "cpuprofile", "memprofile"}

// Stdout, given as --out, is standard output.
const Stdout = "-"

// CheckOutputFlags checks, before a command does any work, every output
// flag set in fl (CheckOutput): a path that holds a directory, a symbolic
// link, a device, a FIFO or a socket is refused, in one line naming the
// flag, because the write would replace it. --out - (stdout) and an --out
// with a placeholder ("{shard}", checked once it is known) pass. With
// outIsDir, --out names a directory (a lesson pack): a new path or a
// directory passes.
func CheckOutputFlags(fl *pflag.FlagSet, outIsDir bool) error {
	var err error
	fl.Visit(func(f *pflag.Flag) {
		path := f.Value.String()
		if err != nil || !slices.Contains(OutputFlags, f.Name) || path == "" {
			return
		}
		switch {
		case f.Name == "out" && (path == Stdout || strings.Contains(path, "{")):
			return
		case f.Name == "out" && outIsDir:
			if info, lerr := os.Lstat(path); lerr == nil && !info.IsDir() {
				err = fmt.Errorf("--out %s: %s, not a directory (the lesson pack is a directory)", path, kindOf(info.Mode()))
			}
			return
		}
		if cerr := CheckOutput(path); cerr != nil {
			err = fmt.Errorf("--%s %s: %w", f.Name, path, cerr)
		}
	})
	return err
}
