package live

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTarget listens on loopback and answers every connection with
// answer (nil: reads and never answers), until the test ends.
func fakeTarget(t *testing.T, answer []byte) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				c.Read(make([]byte, 512))
				if answer == nil {
					<-stop
					return
				}
				c.Write(answer)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// A target that is not a working HTTP service is named in one line, each
// failure in its own words: nothing listening, no answer, not HTTP.
func TestProbeNamesWhatIsWrong(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	up := httptest.NewServer(http.NotFoundHandler()) // any HTTP answer will do, 404 too
	defer up.Close()
	for _, c := range []struct {
		name, target, want string
	}{
		{"refused", closed, "connection refused: nothing listens on"},
		{"silent", fakeTarget(t, nil), "but no answer to GET / within"},
		{"garbage", fakeTarget(t, []byte("SSH-2.0-OpenSSH_9.6\r\n")), `answered something that is not HTTP ("SSH-2.0-OpenSSH_9.6\r\n"`},
		{"hang-up", fakeTarget(t, []byte{}), "closed the connection without an answer"},
		{"up", up.URL, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := waitReady(context.Background(), c.target, 0, 200*time.Millisecond, nil)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("a working service: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want %q", err, c.want)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Fatalf("not one line: %q", err)
			}
		})
	}
}

// --target-ready waits for a service that starts late, and says it was a
// slow start; one that never comes is refused with how long was waited.
func TestTargetReadyWaits(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	started := make(chan *httptest.Server, 1)
	go func() {
		time.Sleep(3 * readyEvery) // up after a few refused probes
		l, err := net.Listen("tcp", addr)
		if err != nil {
			started <- nil
			return
		}
		s := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.NotFoundHandler()}}
		s.Start()
		started <- s
	}()
	var log bytes.Buffer
	err = waitReady(context.Background(), "http://"+addr, time.Minute, time.Second, &log)
	s := <-started
	if s == nil {
		t.Fatalf("%s was taken by another process meanwhile: run again", addr)
	}
	defer s.Close()
	if err != nil {
		t.Fatalf("a service up after a few tries: %v", err)
	}
	if !strings.Contains(log.String(), "answered after") || !strings.Contains(log.String(), "slow start") {
		t.Errorf("the slow start was not said: %q", log.String())
	}
	s.Close()
	err = waitReady(context.Background(), "http://"+addr, 3*readyEvery, time.Second, nil)
	if err == nil || !strings.Contains(err.Error(), "not ready after --target-ready 300ms: connection refused") {
		t.Errorf("never up: %v", err)
	}
}

// A --target service that gets payments and never calls the provider is
// said in one line; one that charges is not.
func TestChargeWatchSaysNoChargeCame(t *testing.T) {
	var log bytes.Buffer
	done := make(chan struct{})
	defer close(done)
	w := &chargeWatch{log: &log, provider: "http://127.0.0.1:47110", done: done}
	w.check()
	if log.Len() != 0 {
		t.Fatalf("said before any payment: %q", log.String())
	}
	w.payment()
	w.check()
	w.check()
	if got := log.String(); !strings.HasPrefix(got, "live: no charge call reached the provider in ") || strings.Count(got, "\n") != 1 ||
		!strings.Contains(got, "1 payment request(s)") || !strings.Contains(got, "http://127.0.0.1:47110") {
		t.Fatalf("said %q", got)
	}
	log.Reset()
	ok := &chargeWatch{log: &log, done: done}
	h := ok.wrap(http.NotFoundHandler())
	ok.payment()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, PathCharges, nil))
	ok.check()
	if log.Len() != 0 {
		t.Fatalf("said of a service that charged: %q", log.String())
	}
}
