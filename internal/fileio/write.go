package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Mode is the permission of every file once writes: outputs (reports,
// shards, plans) are meant to be read by others, by merge on another
// machine, by a course's students.
const Mode = 0o644

// CheckOutput checks that path may be written: it does not exist, or it
// is a regular file, which the write replaces. Anything else at the path
// is refused: a directory, a symbolic link (even to a regular file: the
// rename would replace the link), a device (/dev/null: run as root, the
// rename would replace the device itself), a named pipe or a socket.
// Every command checks its outputs with it before it does any work, and
// Create checks again right before the rename.
func CheckOutput(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return UnwrapPath(err)
	}
	return WritableKind(info.Mode())
}

// WritableKind accepts the kind of file an output may replace: a regular
// file, nothing else.
func WritableKind(mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return fmt.Errorf("%s, not a regular file (once writes only a new file or over a regular file)", kindOf(mode))
}

// Pending is an output being written: a temporary file beside its
// destination, renamed into place by Commit.
type Pending struct {
	*os.File
	dst string
}

// Create starts the output dst: CheckOutput, then a temporary file in
// dst's directory. Write it, then Commit (or Abort).
func Create(dst string) (*Pending, error) {
	if err := CheckOutput(dst); err != nil {
		return nil, fmt.Errorf("%s: %w", dst, err)
	}
	dir := filepath.Dir(dst)
	tmp, err := os.CreateTemp(dir, ".once-*")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot create a file in %s: %w", dst, dir, UnwrapPath(err))
	}
	return &Pending{File: tmp, dst: dst}, nil
}

// Close finishes the temporary file (0644); Commit calls it.
func (p *Pending) Close() error {
	return errors.Join(p.File.Chmod(Mode), p.File.Close())
}

// Abort removes the temporary file.
func (p *Pending) Abort() {
	p.File.Close()
	os.Remove(p.File.Name())
}

// Commit closes the file and renames it over its destination, after
// checking the destination again: whatever was put there meanwhile (a
// symbolic link, a device) is refused, not replaced. On an error the
// temporary file is removed.
func (p *Pending) Commit() error {
	if err := p.Close(); err != nil {
		os.Remove(p.File.Name())
		return fmt.Errorf("%s: %w", p.dst, UnwrapPath(err))
	}
	return p.rename()
}

func (p *Pending) rename() error {
	if err := CheckOutput(p.dst); err != nil {
		os.Remove(p.File.Name())
		return fmt.Errorf("%s: %w", p.dst, err)
	}
	if err := os.Rename(p.File.Name(), p.dst); err != nil {
		os.Remove(p.File.Name())
		return fmt.Errorf("%s: %w", p.dst, UnwrapPath(err))
	}
	return nil
}

// WriteAtomic writes the files of contents (path → bytes) each to a
// temporary file beside it first, and renames them into place only when
// all are written, so a failure leaves nothing half-written. Every path
// is checked (CheckOutput) before anything is written, and again right
// before its rename. The files are written 0644.
func WriteAtomic(paths []string, contents [][]byte) error {
	for _, dst := range paths {
		if err := CheckOutput(dst); err != nil {
			return fmt.Errorf("%s: %w", dst, err)
		}
	}
	var ps []*Pending
	cleanup := func() {
		for _, p := range ps {
			os.Remove(p.File.Name())
		}
	}
	for i, dst := range paths {
		p, err := Create(dst)
		if err != nil {
			cleanup()
			return err
		}
		ps = append(ps, p)
		_, werr := p.Write(contents[i])
		if err := errors.Join(werr, p.Close()); err != nil {
			cleanup()
			return fmt.Errorf("%s: %w", dst, UnwrapPath(err))
		}
	}
	for _, p := range ps {
		if err := p.rename(); err != nil {
			cleanup() // the files renamed before stay: each is whole
			return err
		}
	}
	return nil
}
