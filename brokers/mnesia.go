package brokers

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
)

// onDisk says whether a Mnesia table or log file under dir (message
// stores and queue indexes left out: they hold routing keys) contains
// name.
func onDisk(dir, name string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return nil
		}
		if d.IsDir() && (d.Name() == "msg_stores" || d.Name() == "queues") {
			return filepath.SkipDir
		}
		// PREVIOUS.LOG is the log Mnesia is folding into its tables: not
		// where a record stays.
		if ext := filepath.Ext(path); !d.IsDir() && d.Name() != "PREVIOUS.LOG" && (ext == ".LOG" || ext == ".DCD" || ext == ".DCL") {
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(name)) {
				found = true
			}
		}
		return nil
	})
	return found
}
