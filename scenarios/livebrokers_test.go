package scenarios

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLiveBrokers: live.brokers is read in the file's order, and an
// unknown or repeated broker is refused at its line and column.
func TestLiveBrokers(t *testing.T) {
	src, err := os.ReadFile("catalog/redis-lock-expiry.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Load("redis-lock-expiry.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sc.Brokers, []string{"redis"}) || !sc.RunsOn("redis") || sc.RunsOn("rabbitmq") {
		t.Errorf("redis-lock-expiry's brokers: %v, want [redis]", sc.Brokers)
	}
	for _, c := range []struct{ line, want string }{
		{"live: {brokers: [redis, kafka]}", `x.yaml:LINE:25: live.brokers: "kafka" is not one of redis, rabbitmq, nats, kfake`},
		{"live: {brokers: [redis, redis]}", `x.yaml:LINE:25: live.brokers: "redis" is listed twice`},
	} {
		text := strings.Replace(string(src), "live: {brokers: [redis]}", c.line, 1)
		line := 1 + strings.Count(text[:strings.Index(text, c.line)], "\n")
		_, err := Load("x.yaml", []byte(text))
		want := strings.Replace(c.want, "LINE", strconv.Itoa(line), 1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", c.line, err, want)
		}
	}
}
