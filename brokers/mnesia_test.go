package brokers

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUndecided reads two transaction logs of RabbitMQ 3.10.8 nodes
// (Mnesia 4.21.3), copied from their directories: one taken when the
// node was SIGKILLed right after queue.declare-ok (seed 6 of
// rabbitmq-broker-crash alo, before this check existed), whose queue the
// restarted node no longer had, and one taken 6 s after a declare. The
// first holds the queue's commit record (presume_abort) without its
// decision; the second holds both.
func TestUndecided(t *testing.T) {
	for _, c := range []struct {
		file string
		want int
	}{{"undecided-queue.LOG", 1}, {"decided-queue.LOG", 0}} {
		dir := t.TempDir()
		node := filepath.Join(dir, "once1@localhost")
		if err := os.Mkdir(node, 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("testdata", "mnesia", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(node, "LATEST.LOG"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := undecided(dir); got != c.want {
			t.Errorf("%s: %d undecided transactions, want %d", c.file, got, c.want)
		}
		pending, decided := 0, 0
		for _, outcome := range tidOutcomes(b) {
			switch outcome {
			case "presume_abort":
				pending++
			case "committed":
				decided++
			}
		}
		if pending < 7 { // the boot's schema transactions and the queue's
			t.Errorf("%s: %d commit records presuming abort found, want the log's 7 or more", c.file, pending)
		}
	}
}
