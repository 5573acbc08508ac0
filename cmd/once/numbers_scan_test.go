package main

import (
	"regexp"
	"sort"
	"strings"
)

var (
	// decimalPoint is a number written with a decimal point, not part of
	// a range (1..20), a version (v1.2.3), a setting (crash=0.2), an
	// identifier or a flag value (--late 0.5).
	decimalPoint = regexp.MustCompile(`(^|[^\w.=/-])(\d+\.\d+)($|[^\w.%])`)
	// percentGlued is a percentage without the space the language puts
	// before %, not an adjective made of it (95%-ные).
	percentGlued = regexp.MustCompile(`\d%($|[^-\w])`)
	// flagValue is a flag and its value, as a command line shows them, or
	// a fault kind and its probability as a run's headline lists them
	// (loss 0.1 · ack-loss 0.3: the flags' names and values).
	flagValue = regexp.MustCompile(`--[a-z-]+[ =]\S+|\b(?:loss|ack-loss|dup|slow|crash|pause|late|preempt) \d+(?:\.\d+)?\b`)
	// productVersion is a product's version or range of versions (Kafka 3.2–3.9).
	productVersion = regexp.MustCompile(`\b(?:Kafka|Java|Flink|Redis|RabbitMQ|NATS|PostgreSQL|Go|Python)(?:\s+\p{L}+)?\s+\d+\.\d+(?:[–-]\d+\.\d+)?`)
)

// numberLeaks lists the numbers of a Romanian or Russian screen written in
// the English form: a decimal point where the language writes a comma
// (0.930 for 0,930), a percentage glued to its sign (95% for 95 %).
func numberLeaks(out string) []string {
	out = flagValue.ReplaceAllString(out, " ")
	out = productVersion.ReplaceAllString(out, " ")
	seen := map[string]bool{}
	for _, m := range decimalPoint.FindAllStringSubmatch(out, -1) {
		seen[m[2]] = true
	}
	for _, m := range percentGlued.FindAllString(out, -1) {
		seen[strings.TrimRight(m, " \n)(.,;:")] = true
	}
	var list []string
	for n := range seen {
		list = append(list, n)
	}
	sort.Strings(list)
	return list
}
