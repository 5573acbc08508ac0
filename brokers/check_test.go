package brokers

import (
	"errors"
	"strings"
	"testing"

	"github.com/oncesim/once/live"
	"github.com/oncesim/once/scenarios"
	"github.com/oncesim/once/sim"
)

// planned is the one run of a catalog scenario under sem with params.
func planned(t *testing.T, name string, sem sim.Semantics, params map[string]string, seed uint64) (*scenarios.Scenario, []live.Planned) {
	t.Helper()
	sc, err := scenarios.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	set := scenarios.Settings{Semantics: sem, Ops: sc.Ops, Faults: sc.Faults, Params: params}
	cfg, err := sc.Config(set)
	if err != nil {
		t.Fatal(err)
	}
	return sc, []live.Planned{{Settings: set, Config: cfg, Chooser: sim.NewRandom(seed), Replay: "once run " + name}}
}

// TestCheckRefusesInOneLine: every broker run that cannot be made is a
// usage error (exit 2) of one line naming the flag and its value, before
// anything starts.
func TestCheckRefusesInOneLine(t *testing.T) {
	lock, lockRuns := planned(t, "redis-lock-expiry", sim.Idempotent, nil, 1)
	dedup, dedupRuns := planned(t, "idempotent-consumer-dedup", sim.Idempotent, nil, 1)
	pay, payRuns := planned(t, "double-billing", sim.Idempotent, nil, 1)
	prod, prodAlo := planned(t, "idempotent-producer-retry", sim.AtLeastOnce, nil, 1)
	crash, crashAlo := planned(t, "rabbitmq-broker-crash", sim.AtLeastOnce, nil, 1)
	_, crashAmo := planned(t, "rabbitmq-broker-crash", sim.AtMostOnce, nil, 1)
	for _, c := range []struct {
		o    Options
		sc   *scenarios.Scenario
		ps   []live.Planned
		want string
	}{
		{Options{Broker: "kafka"}, lock, lockRuns, `--broker "kafka": want one of redis, rabbitmq, nats, kfake`},
		{Options{Broker: "rabbitmq"}, lock, lockRuns, "scenario redis-lock-expiry does not run on --broker rabbitmq: its live.brokers lists redis"},
		{Options{Broker: "redis"}, pay, payRuns, "scenario double-billing does not run on --broker redis: its live.brokers lists none"},
		{Options{URL: "redis://127.0.0.1:6379"}, lock, lockRuns, "--broker-url and --variant go with --broker (redis|rabbitmq|nats|kfake)"},
		{Options{Broker: "redis", URL: "redis://10.1.2.3:6379"}, lock, lockRuns, "--broker-url redis://10.1.2.3:6379: not loopback; give --allow-remote to use a broker elsewhere"},
		{Options{Broker: "redis", URL: "amqp://127.0.0.1:5672"}, lock, lockRuns, `--broker-url "amqp://127.0.0.1:5672": want a redis://HOST:PORT URL`},
		{Options{Broker: "redis", Variant: "dedup-memory"}, lock, lockRuns, "--variant dedup-memory: scenario redis-lock-expiry has no variants on redis under idem"},
		{Options{Broker: "kfake", URL: "kafka://127.0.0.1:9092"}, prod, prodAlo, "--broker-url: kfake runs inside once; give no URL"},
		{Options{Broker: "rabbitmq", URL: "amqp://127.0.0.1:5672"}, crash, crashAlo, "--broker-url: scenario rabbitmq-broker-crash kills and restarts the broker; give no --broker-url, once starts a server of its own"},
		{Options{Broker: "rabbitmq"}, crash, crashAmo, "scenario rabbitmq-broker-crash: no rabbitmq driver runs its roles yet (docs/live.md lists the broker runs)"},
		{Options{Broker: "rabbitmq", Variant: "dedup-disk"}, dedup, dedupRuns, "--variant dedup-disk: want one of dedup-database, dedup-memory (scenario idempotent-consumer-dedup on rabbitmq under idem)"},
	} {
		_, err := Check(&c.o, c.sc, c.ps)
		if err == nil || err.Error() != c.want || !errors.Is(err, ErrUsage) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v on %s: %v, want the usage error %q", c.o, c.sc.Name, err, c.want)
		}
	}
	for _, ok := range []Options{{Broker: "redis"}, {Broker: "redis", URL: "redis://127.0.0.1:1"}, {Broker: "redis", URL: "redis://10.1.2.3:1", AllowRemote: true}} {
		if kind, err := Check(&ok, lock, lockRuns); err != nil || kind != Redis {
			t.Errorf("%+v: %v %v, want redis", ok, kind, err)
		}
	}
	if _, err := Check(&Options{Broker: "rabbitmq"}, crash, crashAlo); err != nil {
		t.Errorf("rabbitmq-broker-crash alo on rabbitmq: %v", err)
	}
	if _, err := Check(&Options{Broker: "rabbitmq", Variant: "dedup-memory"}, dedup, dedupRuns); err != nil {
		t.Errorf("dedup-memory on rabbitmq: %v", err)
	}
}

// TestKfakeIsNamedNotKafka: every screen that names kfake says it is not
// Apache Kafka.
func TestKfakeIsNamedNotKafka(t *testing.T) {
	if !strings.Contains(KFake.Title(), "not Apache Kafka") {
		t.Errorf("kfake's title %q does not say it is not Apache Kafka", KFake.Title())
	}
}
