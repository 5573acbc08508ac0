package scenarios

import "slices"

// LiveBrokers are the brokers a scenario's live.brokers may name: the
// servers once live --broker starts (kfake is franz-go's in-process
// Kafka-protocol cluster, not Apache Kafka).
var LiveBrokers = []string{"redis", "rabbitmq", "nats", "kfake"}

// compileLive reads live.brokers: known names, each once.
func (l *loader) compileLive(sc *Scenario) error {
	for _, b := range l.spec.Live.Brokers {
		if !slices.Contains(LiveBrokers, b.Text) {
			return l.errAt(b, "live.brokers: %q is not one of redis, rabbitmq, nats, kfake", b.Text)
		}
		if slices.Contains(sc.Brokers, b.Text) {
			return l.errAt(b, "live.brokers: %q is listed twice", b.Text)
		}
		sc.Brokers = append(sc.Brokers, b.Text)
	}
	return nil
}

// RunsOn reports whether the scenario declares broker in live.brokers.
func (s *Scenario) RunsOn(broker string) bool { return slices.Contains(s.Brokers, broker) }
