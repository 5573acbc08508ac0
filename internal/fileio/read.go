package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Read reads a file the user named through a bounded reader: at most
// limit+1 bytes, so that an endless or a huge input costs no more than the
// limit, and the parser, which checks the limit, reports where it was
// crossed. Regular files and pipes are read; a device (/dev/zero,
// /dev/urandom, a terminal), a directory or a socket is refused before any
// read. Errors carry no path (the caller names the file).
func Read(path string, limit int) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	if err := ReadableKind(info.Mode()); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	defer f.Close()
	return readAll(f, limit)
}

// ReadIn reads name inside dir, as Read does, and refuses any name that
// leaves dir: an absolute path, a ".." that climbs out, or a symbolic
// link that points outside (os.Root checks every component).
func ReadIn(dir, name string, limit int) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	defer root.Close()
	info, err := root.Stat(name)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	if err := ReadableKind(info.Mode()); err != nil {
		return nil, err
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	defer f.Close()
	return readAll(f, limit)
}

func readAll(f *os.File, limit int) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, UnwrapPath(err)
	}
	return data, nil
}

// ReadableKind accepts the kinds of file an input may be read from.
func ReadableKind(mode fs.FileMode) error {
	switch {
	case mode.IsRegular(), mode&fs.ModeNamedPipe != 0:
		return nil
	case mode.IsDir():
		return errors.New("is a directory, not a file")
	case mode&fs.ModeDevice != 0:
		return errors.New("is a device, not a file (once reads regular files and pipes)")
	}
	return fmt.Errorf("is not a regular file (mode %s)", mode.Type())
}

// UnwrapPath drops the operation and path of an *fs.PathError, which the
// caller's message already names.
func UnwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
