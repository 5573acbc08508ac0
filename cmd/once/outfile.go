package main

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/oncesim/once/internal/fileio"
)

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

// writing runs f with stdout (or --out -), or, with --out, with a buffer
// written at the end atomically (fileio: a temporary file renamed over a
// regular file or a new path, checked before f runs), so a run that fails
// or is killed leaves no half-written report. A --check violation still
// writes the report: it is the report.
func (b *batchFlags) writing(stdout io.Writer, f func(io.Writer) error) error {
	if b.out == "" || b.out == fileio.Stdout {
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
