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
// crossed. Only a regular file (or a symbolic link to one) is read: a
// named pipe, which would block the open until a writer comes (forever,
// for a FIFO nobody writes), a device (/dev/zero, a terminal), a socket
// or a directory is refused before it is opened, and the file opened is
// checked again (opened without blocking, then fstat), so one swapped in
// between is refused too. Errors carry no path (the caller names the
// file).
func Read(path string, limit int) ([]byte, error) {
	return readVia(osFiles{}, path, limit)
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
	return readVia(root, name, limit)
}

// files is where Read and ReadIn open a file: the file system (osFiles)
// or an os.Root.
type files interface {
	Stat(name string) (fs.FileInfo, error)
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
}

// osFiles opens files by their path, as package os does.
type osFiles struct{}

func (osFiles) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (osFiles) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// readVia is Read of name in fsys: the kind checked, opened without
// blocking, checked again, read up to limit+1 bytes.
func readVia(fsys files, name string, limit int) ([]byte, error) {
	info, err := fsys.Stat(name)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	if err := ReadableKind(info.Mode()); err != nil {
		return nil, err
	}
	f, err := fsys.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, UnwrapPath(err)
	}
	defer f.Close()
	if err := sameRegular(f, info); err != nil {
		return nil, err
	}
	return readAll(f, limit)
}

// sameRegular checks that the file opened is still the regular file that
// was checked before the open.
func sameRegular(f *os.File, before fs.FileInfo) error {
	info, err := f.Stat()
	if err != nil {
		return UnwrapPath(err)
	}
	if err := ReadableKind(info.Mode()); err != nil {
		return err
	}
	if !os.SameFile(before, info) {
		return errors.New("the file was replaced while it was opened")
	}
	return nil
}

func readAll(f *os.File, limit int) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, UnwrapPath(err)
	}
	return data, nil
}

// ReadableKind accepts the kind of file an input may be read from: a
// regular file, nothing else.
func ReadableKind(mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return fmt.Errorf("%s, not a regular file (once reads regular files only)", kindOf(mode))
}

// kindOf names the kind of a file that is not a regular file.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "is a regular file"
	case mode.IsDir():
		return "is a directory"
	case mode&fs.ModeSymlink != 0:
		return "is a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "is a socket"
	case mode&fs.ModeDevice != 0:
		return "is a device"
	}
	return fmt.Sprintf("is a special file (mode %s)", mode.Type())
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
