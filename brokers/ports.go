package brokers

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// freePorts finds n consecutive free loopback ports and returns the
// first. It takes them below the kernel's ephemeral range when it can:
// a port there can be given to any outgoing connection (ours to the
// broker, every reconnect of a run) while the broker is down, and a node
// restarted by CrashAndRestart then cannot listen on it again (seen:
// RabbitMQ's distribution port taken, dist_port_already_used … not_erlang,
// and every later seed of the row refused).
func freePorts(n int) (int, error) {
	lo := ephemeralStart()
	for try := 0; try < 100; try++ {
		first := 0
		if lo > 10000+n { // a port in [10000, lo−n)
			first = 10000 + rand.IntN(lo-n-10000)
		}
		if p, ok := bindAll(first, n); ok {
			return p, nil
		}
	}
	return 0, fmt.Errorf("brokers: no %d consecutive free ports on 127.0.0.1", n)
}

// bindAll binds n consecutive loopback ports from first (0: one the
// kernel picks) and frees them, returning the first if all were free.
func bindAll(first, n int) (int, bool) {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(first)))
	if err != nil {
		return 0, false
	}
	first = l.Addr().(*net.TCPAddr).Port
	ls := []net.Listener{l}
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	if first+n-1 >= 65536 {
		return 0, false
	}
	for i := 1; i < n; i++ {
		m, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(first+i)))
		if err != nil {
			return 0, false
		}
		ls = append(ls, m)
	}
	return first, true
}

// ephemeralStart is the first port of Linux's ephemeral range (0 where it
// cannot be read: the kernel then picks the ports).
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return 0
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return lo
}
