package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writes from several goroutines while another reads all land (go test
// -race finds the race a bare bytes.Buffer would have).
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("x"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("x", 400) {
		t.Errorf("%d bytes, want 400", len(got))
	}
}
