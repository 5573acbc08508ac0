package fileio

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/oncesim/once/internal/usererr"
)

// OutputFlags are the flags that name a file once writes (a report, a
// shard, a plan, a lesson result, a profile).
var OutputFlags = []string{"out", "save", "result", "cpuprofile", "memprofile"}

// Stdout, given as --out, is standard output.
const Stdout = "-"

// CheckGivenFlags checks, before a command does any work, the flags given
// in fl. A text flag given an empty value is refused: no flag of once
// takes "" as a value, and one read as left out would be a flag accepted
// and ignored. Every output flag (CheckOutput): a path that holds a directory, a symbolic
// link, a device, a FIFO or a socket is refused, in one line naming the
// flag, because the write would replace it. --out - (stdout) and an --out
// with a placeholder ("{shard}", checked once it is known) pass. With
// outIsDir, --out names a directory (a lesson pack): a new path or a
// directory passes. An output flag given an empty path is refused (it
// wrote nothing, as if left out), and so is a file whose directory is
// missing (found only at the end, after the work: the lesson's --result
// after the whole quiz).
func CheckGivenFlags(fl *pflag.FlagSet, outIsDir bool) error {
	var err error
	fl.Visit(func(f *pflag.Flag) {
		path := f.Value.String()
		if err != nil {
			return
		}
		if !slices.Contains(OutputFlags, f.Name) {
			if path == "" && f.Value.Type() == "string" {
				err = usererr.New("empty_flag_value", map[string]any{"Flag": "--" + f.Name},
					fmt.Sprintf("--%s \"\": an empty value; give one, or leave the flag out", f.Name))
			}
			return
		}
		if path == "" {
			err = usererr.New("empty_output_path", map[string]any{"Flag": "--" + f.Name},
				fmt.Sprintf("--%s \"\": an empty path; give one, or leave the flag out", f.Name))
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
		} else if dir := filepath.Dir(path); !isDir(dir) {
			_, serr := os.Stat(dir)
			if serr == nil {
				serr = fmt.Errorf("%s is not a directory", dir)
			}
			err = fmt.Errorf("--%s %s: cannot create a file in %s: %w", f.Name, path, dir, UnwrapPath(serr))
		}
	})
	return err
}

// isDir says whether path is a directory (following a symbolic link).
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
