package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", ".", "the family's folder: its views are read from there and its generated files written there")
	flag.Parse()
	if err := run(*dir, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "viewgen:", err)
		os.Exit(1)
	}
}

// run writes the generated files of the package in dir into folder out.
func run(dir, out string) error {
	code, test, err := generate(dir)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, genFile), code, 0o644); err != nil {
		return fmt.Errorf("writing the codecs: %w", err)
	}
	if err := os.WriteFile(filepath.Join(out, testFile), test, 0o644); err != nil {
		return fmt.Errorf("writing the round-trip test: %w", err)
	}
	return nil
}
