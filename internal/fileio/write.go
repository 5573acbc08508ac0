package fileio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Mode is the permission of every file once writes: outputs (reports,
// shards, plans) are meant to be read by others, by merge on another
// machine, by a course's students.
const Mode = 0o644

// WriteAtomic writes the files of contents (path → bytes) each to a
// temporary file beside it first, and renames them into place only when
// all are written, so a failure leaves nothing half-written. The files
// are written 0644.
func WriteAtomic(paths []string, contents [][]byte) error {
	var tmps []string
	cleanup := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	for i, dst := range paths {
		dir := filepath.Dir(dst)
		tmp, err := os.CreateTemp(dir, ".once-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("%s: cannot create a file in %s: %w", dst, dir, UnwrapPath(err))
		}
		tmps = append(tmps, tmp.Name())
		_, werr := tmp.Write(contents[i])
		if err := errors.Join(werr, tmp.Chmod(Mode), tmp.Close()); err != nil {
			cleanup()
			return fmt.Errorf("%s: %w", dst, UnwrapPath(err))
		}
	}
	for i, dst := range paths {
		if err := os.Rename(tmps[i], dst); err != nil {
			cleanup()
			return fmt.Errorf("%s: %w", dst, UnwrapPath(err))
		}
	}
	return nil
}
