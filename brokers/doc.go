// Package brokers runs the queue and lock lessons over real brokers: it
// starts a throwaway server per broker (RabbitMQ, Redis, NATS JetStream;
// franz-go's in-process kfake for Kafka's protocol) in a temporary
// directory, on loopback and free ports, waits until it is ready, and
// stops it by PID on every path (server.go, process.go); its drivers run a
// scenario's producer, consumer or workers against it with the
// simulator's faults decided by live's seeded Decider, count the effects
// in SQLite and judge the run with the simulator's checker (run.go).
//
// A server is never one the machine runs as a service: each is a child of
// this process, killed by the kernel if this process dies (parent-death
// signal), and its directory is removed when it stops.
package brokers
