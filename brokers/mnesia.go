package brokers

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// onDisk says whether a Mnesia table or log file under dir (message
// stores and queue indexes left out: they hold routing keys) contains
// name. A name in the transaction log is not yet a durable record: see
// undecided.
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

// undecided counts the transactions in Mnesia's transaction log under
// dir (LATEST.LOG and PREVIOUS.LOG of the node's directory) whose commit
// record presumes abort and whose decision (committed or aborted) is not
// in the log yet.
//
// Why: RabbitMQ writes a durable queue's record to rabbit_queue (RAM) and
// rabbit_durable_queue (disc) in one transaction; tables of different
// storage make Mnesia use its asymmetric commit, whose commit record says
// presume_abort and is followed by a separate decision record. The
// decision can reach the file after queue.declare-ok (measured: 1 and 11
// of 20 declares on one node), since disk_log keeps writes in the
// process's memory up to 2 s unless a sync flushes them. A SIGKILL in
// between leaves a commit without its decision, which Mnesia aborts when
// the node starts again: the queue is gone though its name was in the
// file (docs/broker-agreement.md).
func undecided(dir string) int {
	pending := map[string]bool{}
	decided := map[string]bool{}
	logs, _ := filepath.Glob(filepath.Join(dir, "*", "PREVIOUS.LOG"))
	latest, _ := filepath.Glob(filepath.Join(dir, "*", "LATEST.LOG"))
	for _, path := range append(logs, latest...) {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for tid, outcome := range tidOutcomes(b) {
			switch outcome {
			case "presume_abort":
				pending[tid] = true
			case "committed", "aborted":
				decided[tid] = true
			}
		}
	}
	n := 0
	for tid := range pending {
		if !decided[tid] {
			n++
		}
	}
	return n
}

// tidOutcomes finds, in the external term format of a Mnesia log, each
// {tid, Counter, Pid} tuple and the atom right after it (the outcome of
// a #decision{tid, outcome, …} record: presume_abort in a commit record,
// committed or aborted in a decision record), keyed by the tuple's bytes.
func tidOutcomes(b []byte) func(yield func(string, string) bool) {
	return func(yield func(string, string) bool) {
		for _, tag := range [][]byte{{104, 3, 100, 0, 3}, {104, 3, 118, 0, 3}, {104, 3, 115, 3}, {104, 3, 119, 3}} {
			head := append(slices.Clone(tag), "tid"...)
			for i := 0; ; {
				j := bytes.Index(b[i:], head)
				if j < 0 {
					break
				}
				start := i + j
				end, ok := skipTerms(b, start+len(head), 2) // the counter and the pid
				i = start + len(head)
				if !ok {
					continue
				}
				if atom, ok := readAtom(b, end); ok && !yield(string(b[start:end]), atom) {
					return
				}
			}
		}
	}
}

// skipTerms steps over n terms of the kinds a tid holds (integers, pids),
// returning the offset after them.
func skipTerms(b []byte, at, n int) (int, bool) {
	for ; n > 0; n-- {
		if at >= len(b) {
			return 0, false
		}
		switch b[at] {
		case 97: // SMALL_INTEGER_EXT
			at += 2
		case 98: // INTEGER_EXT
			at += 5
		case 88, 103: // NEW_PID_EXT, PID_EXT: a node atom, then ids and creation
			_, next, ok := atomAt(b, at+1)
			if !ok {
				return 0, false
			}
			at = next + map[byte]int{88: 12, 103: 9}[b[at]]
		default:
			return 0, false
		}
	}
	return at, at <= len(b)
}

// readAtom reads an atom at b[at].
func readAtom(b []byte, at int) (string, bool) {
	s, _, ok := atomAt(b, at)
	return s, ok
}

// atomAt reads an atom (ATOM_EXT, ATOM_UTF8_EXT, and their small forms)
// at b[at], returning it and the offset after it.
func atomAt(b []byte, at int) (string, int, bool) {
	if at+2 > len(b) {
		return "", 0, false
	}
	var n, off int
	switch b[at] {
	case 100, 118:
		if at+3 > len(b) {
			return "", 0, false
		}
		n, off = int(b[at+1])<<8|int(b[at+2]), at+3
	case 115, 119:
		n, off = int(b[at+1]), at+2
	default:
		return "", 0, false
	}
	if off+n > len(b) {
		return "", 0, false
	}
	return string(b[off : off+n]), off + n, true
}
