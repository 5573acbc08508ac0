package fileio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomicIsReadableByOthers(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := WriteAtomic([]string{a, b}, [][]byte{[]byte("A"), []byte("B")}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != Mode {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), os.FileMode(Mode))
		}
	}
}

func TestWriteAtomicLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok")
	bad := filepath.Join(dir, "missing", "x")
	if err := WriteAtomic([]string{ok, bad}, [][]byte{[]byte("1"), []byte("2")}); err == nil {
		t.Fatal("want an error for a missing directory")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestReadRefusesDevicesAndDirectories(t *testing.T) {
	for path, want := range map[string]string{"/dev/zero": "device", t.TempDir(): "directory"} {
		if _, err := Read(path, 10); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%s) = %v, want %q", path, err, want)
		}
	}
}

func TestReadInStaysInside(t *testing.T) {
	dir := t.TempDir()
	inner := filepath.Join(dir, "in")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "outside.yaml"), []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(inner, "x.yaml"), []byte("ok"), 0o644)
	os.Symlink("../outside.yaml", filepath.Join(inner, "link.yaml"))
	if data, err := ReadIn(inner, "x.yaml", 10); err != nil || string(data) != "ok" {
		t.Fatalf("ReadIn x.yaml = %q, %v", data, err)
	}
	for _, name := range []string{"../outside.yaml", "link.yaml", "/etc/passwd"} {
		if data, err := ReadIn(inner, name, 100); err == nil {
			t.Errorf("ReadIn %s = %q, want refused", name, data)
		} else if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "root:") {
			t.Errorf("ReadIn %s: error echoes content: %v", name, err)
		}
	}
}
