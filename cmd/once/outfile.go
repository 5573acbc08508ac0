package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/oncesim/once/internal/fileio"
)

// outputFlags are the flags that name a file once writes. Before any
// command runs, each one given is checked (checkOutputFlags): a path that
// holds a directory, a symbolic link, a device, a FIFO or a socket is
// refused up front, before any work, because the write would replace it.
var outputFlags = []string{"out", "save", "result", "cpuprofile", "memprofile"}

// stdoutPath, given to --out, is stdout.
const stdoutPath = "-"

// checkOutputFlags refuses, in one line, an output flag of cmd whose path
// holds anything but a regular file (fileio.CheckOutput). lesson --out
// names a directory: there a new path or a directory is accepted.
func checkOutputFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || !slices.Contains(outputFlags, f.Name) {
			return
		}
		path := f.Value.String()
		switch {
		case path == "" || (f.Name == "out" && (path == stdoutPath || strings.Contains(path, shardPlaceholder))):
			return // stdout, or checked once the shard's index is known (outPath)
		case cmd.Name() == "lesson" && f.Name == "out":
			if info, lerr := os.Lstat(path); lerr == nil && !info.IsDir() {
				err = usageErr("--out %s: %s: the lesson pack is a directory", path, fileio.WritableKind(info.Mode()))
			}
			return
		}
		if cerr := fileio.CheckOutput(path); cerr != nil {
			err = usageErr("--%s %s: %v", f.Name, path, cerr)
		}
	})
	return err
}

// shardPlaceholder in --out is replaced by the shard's index, so one
// command line serves every task of a Job or an array without a shell.
const shardPlaceholder = "{shard}"

// outPath resolves --out for shard (sharded or not).
func (b *batchFlags) outPath() (string, error) {
	if !strings.Contains(b.out, shardPlaceholder) {
		return b.out, nil
	}
	if !b.sharded {
		return "", usageErr("--out %s: %s is the shard's index, and there is no --shard", b.out, shardPlaceholder)
	}
	return strings.ReplaceAll(b.out, shardPlaceholder, strconv.Itoa(b.shard.Index)), nil
}

// writing runs f with stdout (no --out, or --out -), or, with --out, with
// a buffer written to the file at the end — atomically (a temporary file
// renamed into place), so a run that fails or is killed leaves no
// half-written report or shard. A --check violation still writes the
// report: it is the report. A path that holds anything but a regular file
// is refused before f runs (fileio.CheckOutput).
func (b *batchFlags) writing(stdout io.Writer, f func(io.Writer) error) error {
	if b.out == "" || b.out == stdoutPath {
		return f(stdout)
	}
	if err := b.parse(); err != nil {
		return err
	}
	dst, err := b.outPath()
	if err != nil {
		return err
	}
	if err := fileio.CheckOutput(dst); err != nil {
		return usageErr("--out %s: %v", dst, err)
	}
	var buf bytes.Buffer
	ferr := f(&buf)
	var ee *exitError
	if ferr != nil && !(errors.As(ferr, &ee) && ee.code == exitViolation) {
		return ferr
	}
	if err := fileio.WriteAtomic([]string{dst}, [][]byte{buf.Bytes()}); err != nil {
		return usageErr("--out %v", err)
	}
	return ferr
}
