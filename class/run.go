package class

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/oncesim/once/report/lang"
)

// DefaultListen is where a class listens unless told: this computer only.
const DefaultListen = "127.0.0.1:8080"

// Listen opens the class's address: loopback unless told, and off
// loopback only with a join code (the class's, or o.Code). Refusals are
// one line each: a malformed address, a port in use, a classroom
// address without a code.
func Listen(o Options, code string) (net.Listener, error) {
	addr := o.Listen
	if addr == "" {
		addr = DefaultListen
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, refuse("class_listen", map[string]any{"Addr": addr}, fmt.Sprintf("--listen %s: not an address to listen on (want HOST:PORT, for instance 127.0.0.1:8080)", addr))
	}
	if !Loopback(host) && strings.TrimSpace(code) == "" {
		return nil, refuse("class_needs_code", map[string]any{"Addr": addr}, fmt.Sprintf("--listen %s: off this computer a class needs a join code: add `--code random` (or `--code WORD`)", addr))
	}
	l, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, refuse("class_port_in_use", map[string]any{"Addr": addr}, fmt.Sprintf("%s: the port is in use (another once class, or another server): choose another with --listen", addr))
	}
	if err != nil {
		return nil, refuse("class_listen", map[string]any{"Addr": addr}, fmt.Sprintf("--listen %s: not an address to listen on (want HOST:PORT, for instance 127.0.0.1:8080)", addr))
	}
	return l, nil
}

// Loopback says whether host is this computer alone: localhost or a
// loopback address (an empty host is every interface).
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// joinURL is the address students open: the listener's, with a
// classroom address in place of "every interface", and the join code
// in it (the QR code carries it).
func (cl *Class) joinURL() string {
	u := url.URL{Scheme: "http", Host: cl.addr, Path: "/"}
	if cl.code != "" {
		u.RawQuery = url.Values{"code": {cl.code}}.Encode()
	}
	return u.String()
}

// publicHost is the host students reach a listener on: its own, or for
// every interface (0.0.0.0, ::) this computer's first non-loopback IPv4
// address.
func publicHost(l net.Addr) string {
	a, ok := l.(*net.TCPAddr)
	if !ok {
		return l.String()
	}
	if !a.IP.IsUnspecified() {
		return a.String()
	}
	addrs, _ := net.InterfaceAddrs()
	for _, ia := range addrs {
		if n, ok := ia.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return net.JoinHostPort(n.IP.String(), fmt.Sprint(a.Port))
		}
	}
	return net.JoinHostPort("127.0.0.1", fmt.Sprint(a.Port))
}

// Run is `once class`: the class opened (New) in o.Dir, served on its
// address until ctx is done, with the join address, its QR code and the
// join code, the instructor's dashboard and where the state and the key
// are printed to out first. Refusals are *lesson.InputError.
func Run(ctx context.Context, o Options, out io.Writer) error {
	l, err := Listen(o, o.Code) // refused before anything is written
	if err != nil {
		return err
	}
	defer l.Close()
	cl, err := New(o)
	if err != nil {
		return err
	}
	defer cl.Close()
	cl.addr = publicHost(l.Addr())
	srv := &http.Server{Handler: cl.Handler(), ReadHeaderTimeout: 10 * time.Second}
	cl.Banner(out, o)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return fmt.Errorf("class: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}

// Banner prints what the instructor needs: the join address with its QR
// code and the join code, the dashboard's address (with the token), where
// the state and the class key are kept.
func (cl *Class) Banner(out io.Writer, o Options) {
	join := cl.joinURL()
	fmt.Fprintln(out, lang.Tf("class.started", map[string]any{"URL": join}))
	if cl.code != "" {
		fmt.Fprintln(out, lang.Tf("class.code_line", map[string]any{"Code": cl.code}))
	}
	if err := WriteQR(out, join); err != nil {
		fmt.Fprintln(out, err)
	}
	host, _, _ := net.SplitHostPort(cl.addr)
	if Loopback(host) {
		fmt.Fprintln(out, lang.T("class.loopback_line"))
	}
	fmt.Fprintln(out, lang.Tf("class.teacher_line", map[string]any{"URL": "http://" + cl.addr + "/teacher?token=" + cl.teacher}))
	fmt.Fprintln(out, lang.Tf("class.state_line", map[string]any{"File": filepath.Join(cl.dir, StateFile)}))
	if cl.keyFile != "" {
		fmt.Fprintln(out, lang.Tf("class.key_line", map[string]any{"File": cl.keyFile}))
	} else {
		fmt.Fprintln(out, lang.T("class.key_given"))
	}
	fmt.Fprintln(out, lang.T("class.stop_line"))
}
