package live

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// noChargeAfter is how long after the first payment reached a --target
// service a run waits for its first charge call before it says none came.
const noChargeAfter = 5 * time.Second

// chargeWatch notices a --target service that never calls the provider (a
// service pointed at the wrong ONCE_PROVIDER_URL): payments reach it, no
// charge reaches the fault layer in front of the provider. It says so in
// one line on log, once, noChargeAfter after the first payment went to
// the service, or at the run's end if that comes first — instead of a
// verdict of "not charged" with no hint why.
type chargeWatch struct {
	log      io.Writer
	provider string // the provider's URL your service should call
	done     <-chan struct{}

	mu       sync.Mutex
	payments int
	first    time.Time
	charges  int
	said     bool
	armed    bool
}

// wrap returns h, counting every charge call (POST /charges) it gets.
func (c *chargeWatch) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == PathCharges {
			c.mu.Lock()
			c.charges++
			c.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

// payment counts a payment sent to your service; the first starts the
// wait for a charge.
func (c *chargeWatch) payment() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.payments++
	if c.armed {
		return
	}
	c.armed, c.first = true, time.Now()
	go func() {
		t := time.NewTimer(noChargeAfter)
		defer t.Stop()
		select {
		case <-t.C:
			c.check()
		case <-c.done:
		}
	}()
}

// check says, once, that no charge call came, if none did.
func (c *chargeWatch) check() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.said || c.charges > 0 || c.payments == 0 {
		return
	}
	c.said = true
	fmt.Fprintf(c.log, "live: no charge call reached the provider in %.0f s (%d payment request(s) went to your service): does it charge at $ONCE_PROVIDER_URL (%s), POST /charges?\n",
		time.Since(c.first).Seconds(), c.payments, c.provider)
}
