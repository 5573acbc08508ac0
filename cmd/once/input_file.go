package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readInputFile reads a scenario or plan file the user named, through a
// bounded reader: at most limit+1 bytes, so that an endless or a huge
// input costs no more than the limit, and the parser, which checks the
// limit, reports where it was crossed. Regular files and pipes are read;
// a device (/dev/zero, /dev/urandom, a terminal), a directory or a socket
// is refused before any read.
func readInputFile(path string, limit int) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if err := readableKind(info.Mode()); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	return data, nil
}

// readableKind accepts the kinds of file an input may be read from.
func readableKind(mode fs.FileMode) error {
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
