package class

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkClassOf200AnswersAStep is a class of 200 students answering
// one step's predictions at once, each over HTTP as a browser does: an
// op is the whole class's answers, every one committed to the state file
// (synchronous). It reports the slowest and the median answer's latency
// (max-ms, p50-ms) and fails unless every answer was recorded. Each
// student's step is built before the timer starts, as their page did when
// they opened it. Run it alone: go test -bench ClassOf200 -benchtime 3x ./class/
func BenchmarkClassOf200AnswersAStep(b *testing.B) {
	const students = 200
	step := "double-billing"
	var worst, median time.Duration
	for range b.N {
		b.StopTimer()
		cl, srv := newTestClass(b, "", Options{})
		var names []string
		var forms [][]url.Values
		var cookies []*http.Cookie
		for s := range students {
			name := fmt.Sprintf("student-%03d", s)
			session := randomToken(26)
			if err := cl.st.join(name, session, students); err != nil {
				b.Fatal(err)
			}
			var mine []url.Values
			for j, q := range sheet(b, cl, name, step).view.Questions {
				if q.Mechanism {
					mine = append(mine, url.Values{"step": {step}, "n": {strconv.Itoa(j + 1)}, "letter": {string(rune('a' + s%len(q.Choices)))}})
				}
			}
			names, forms, cookies = append(names, name), append(forms, mine), append(cookies, &http.Cookie{Name: sessionCookie, Value: session})
		}
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: students}}
		latencies := make([]time.Duration, students)
		var wg sync.WaitGroup
		b.StartTimer()
		for s := range students {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				for _, f := range forms[s] {
					req, _ := http.NewRequest(http.MethodPost, srv.URL+"/answer", strings.NewReader(f.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
					req.AddCookie(cookies[s])
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("%s: %d", names[s], resp.StatusCode)
					}
				}
				latencies[s] = time.Since(start)
			}()
		}
		wg.Wait()
		b.StopTimer()
		for s, name := range names {
			got, err := cl.st.answersOf(name, step)
			if err != nil || len(got) != len(forms[s]) {
				b.Fatalf("%s: %d answers recorded of %d (%v)", name, len(got), len(forms[s]), err)
			}
		}
		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		worst, median = max(worst, latencies[students-1]), latencies[students/2]
		client.CloseIdleConnections()
		srv.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(median.Microseconds())/1000, "p50-ms")
}
