package brokers

import (
	"fmt"
	"strings"
)

// Kind names a broker once can start.
type Kind string

// The brokers once can run a scenario on.
const (
	Redis    Kind = "redis"
	RabbitMQ Kind = "rabbitmq"
	NATS     Kind = "nats"
	// KFake is franz-go's in-process Kafka cluster: it speaks Kafka's
	// protocol but is not Apache Kafka; every screen says so.
	KFake Kind = "kfake"
)

// Kinds are the brokers, in the order help texts list them.
var Kinds = []Kind{Redis, RabbitMQ, NATS, KFake}

// ParseKind reads a --broker value.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("--broker %q: want one of %s", s, strings.Join(names, ", "))
}

// Title is how a screen names the broker: kfake says it is not Kafka.
func (k Kind) Title() string {
	switch k {
	case Redis:
		return "Redis"
	case RabbitMQ:
		return "RabbitMQ"
	case NATS:
		return "NATS JetStream"
	case KFake:
		return "kfake (franz-go's in-process Kafka-protocol cluster, not Apache Kafka)"
	}
	return string(k)
}
