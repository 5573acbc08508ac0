package brokers

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortsBelowEphemeral: the ports a server gets are free, and
// below the kernel's ephemeral range where it is known, so that no
// outgoing connection takes one while a crashed broker is down.
func TestFreePortsBelowEphemeral(t *testing.T) {
	lo := ephemeralStart()
	for range 20 {
		p, err := freePorts(3)
		if err != nil {
			t.Fatal(err)
		}
		if lo > 10003 && (p < 10000 || p+2 >= lo) {
			t.Errorf("ports %d–%d, want them in [10000, %d)", p, p+2, lo)
		}
		for i := range 3 {
			l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+i)))
			if err != nil {
				t.Errorf("port %d: %v", p+i, err)
				continue
			}
			l.Close()
		}
	}
}
