//go:build unix

package fileio

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// specialFiles makes, in a fresh directory, one of every kind of file
// that is not a regular file, and names the kind each error must give.
func specialFiles(t *testing.T) (dir string, kinds map[string]string) {
	t.Helper()
	dir = t.TempDir()
	kinds = map[string]string{"/dev/null": "is a device", dir: "is a directory"}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	kinds[fifo] = "is a named pipe (FIFO)"
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	kinds[sock] = "is a socket"
	return dir, kinds
}

// within fails the test if f has not returned after 5 s (a FIFO opened
// for reading blocks until a writer comes: forever, here).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked after 5 s", what)
	}
}

func TestReadRefusesAllButRegularFiles(t *testing.T) {
	dir, kinds := specialFiles(t)
	for path, want := range kinds {
		within(t, "Read "+path, func() {
			if _, err := Read(path, 10); err == nil || !strings.Contains(err.Error(), want+", not a regular file") {
				t.Errorf("Read(%s) = %v, want %q", path, err, want)
			}
		})
		if filepath.Dir(path) == dir {
			within(t, "ReadIn "+path, func() {
				if _, err := ReadIn(dir, filepath.Base(path), 10); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("ReadIn(%s) = %v, want %q", path, err, want)
				}
			})
		}
	}
	// A symbolic link to a regular file is read: only what it leads to counts.
	os.WriteFile(filepath.Join(dir, "plan.txt"), []byte("ok"), 0o644)
	os.Symlink("plan.txt", filepath.Join(dir, "link.txt"))
	if data, err := Read(filepath.Join(dir, "link.txt"), 10); err != nil || string(data) != "ok" {
		t.Errorf("Read(link to a regular file) = %q, %v", data, err)
	}
	// A symbolic link to a FIFO is a FIFO.
	os.Symlink("fifo", filepath.Join(dir, "fifolink"))
	within(t, "Read fifolink", func() {
		if _, err := Read(filepath.Join(dir, "fifolink"), 10); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Read(link to a FIFO) = %v", err)
		}
	})
}

// TestOutputsReplaceOnlyRegularFiles: a directory, a symbolic link, a
// device, a FIFO or a socket at an output path is refused, and left as
// it was; a new path and a regular file are written.
func TestOutputsReplaceOnlyRegularFiles(t *testing.T) {
	dir, kinds := specialFiles(t)
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	kinds[link] = "is a symbolic link"
	for path, want := range kinds {
		before, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckOutput(path); err == nil || !strings.Contains(err.Error(), want+", not a regular file") {
			t.Errorf("CheckOutput(%s) = %v, want %q", path, err, want)
		}
		within(t, "WriteAtomic "+path, func() {
			if err := WriteAtomic([]string{filepath.Join(dir, "new"), path}, [][]byte{[]byte("n"), []byte("x")}); err == nil {
				t.Errorf("WriteAtomic(%s) = nil, want refused", path)
			}
		})
		after, err := os.Lstat(path)
		if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s: was %v, now %v (%v)", path, before.Mode(), after, err)
		}
		if _, err := os.Lstat(filepath.Join(dir, "new")); err == nil {
			t.Errorf("WriteAtomic(%s) wrote the other file of the set", path)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("the symbolic link's target was written: %q", data)
	}
	if err := WriteAtomic([]string{target, filepath.Join(dir, "new")}, [][]byte{[]byte("A"), []byte("B")}); err != nil {
		t.Fatalf("a regular file and a new path: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "A" {
		t.Errorf("target = %q, want A", data)
	}
	assertNoTemp(t, dir)
}

// TestCommitChecksAgain: a symbolic link put at the path while the output
// was being written is not replaced; the temporary file goes.
func TestCommitChecksAgain(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "out.json")
	p, err := Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	p.WriteString("report")
	if err := os.Symlink("/etc/passwd", dst); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Fatalf("Commit over a symbolic link = %v", err)
	}
	if got, err := os.Readlink(dst); err != nil || got != "/etc/passwd" {
		t.Errorf("the link is now %q, %v", got, err)
	}
	os.Remove(dst)
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".once-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
