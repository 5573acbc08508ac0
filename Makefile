# once — build, test, benchmark, lint.
GO        ?= go
BENCHTIME ?= 1s
COUNT     ?= 6
BENCHPKGS ?= ./sim/ ./scenarios/ ./cmd/once/
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 30s
FUZZMINIMIZETIME ?= 5s

.PHONY: all build test test-short bench bench-compare lint fmt update fuzz clean spin-compare bench-peer

all: build test

build:
	$(GO) build -o bin/once ./cmd/once

# The test command of the README and of CI: formatting, vet, every test.
test:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	cd deploy && $(GO) vet ./... && $(GO) test -count=1 ./...

test-short:
	$(GO) test -short ./...

# Refresh the golden scripts under testdata/ (CLI outputs and canonical
# traces); review the diff before committing.
update:
	$(GO) test ./cmd/once/ -run 'TestCLI$$' -rewrite
	$(GO) test ./cmd/once/ -run 'TestLessonPlain$$' -rewrite
	$(GO) test ./scenarios/ -run TestCanonicalTraces -rewrite
	$(GO) test ./scenarios/ -run TestPinnedDigests -rewrite
	$(GO) test ./scenarios/ -run TestPinnedExploreVerdicts -rewrite

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(COUNT) $(BENCHPKGS) | tee bench.out
	$(GO) install golang.org/x/perf/cmd/benchstat@latest
	"$$($(GO) env GOPATH)/bin/benchstat" bench.out

# The benchmarks of BASE (default main) and of the working tree, side by
# side with benchstat (bench-old.out, bench.out): make bench-compare
# BASE=<rev> BENCH=<regexp>.
bench-compare:
	GO=$(GO) COUNT=$(COUNT) BENCHTIME=$(BENCHTIME) BENCHPKGS="$(BENCHPKGS)" bash bench/compare.sh

lint:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	gofmt -l . | (! grep .)
	$(GO) vet ./...
	"$$($(GO) env GOPATH)/bin/staticcheck" ./...
	cd deploy && "$$($(GO) env GOPATH)/bin/staticcheck" ./...

# Every fuzz test of every package, one after the other (go test fuzzes one
# target at a time), each for FUZZTIME; a failing input is saved under the
# package's testdata/fuzz and fails the target. Minimizing a new input is
# capped at FUZZMINIMIZETIME: FuzzLoad runs scenarios, and the default
# minute of minimizing would take its whole time.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$target for $(FUZZTIME)"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME); \
	  done; \
	done

clean:
	rm -rf bin bench.out bench-old.out

# SPIN on testdata/spin/double_billing.pml against once explore on the same
# bounds (see testdata/spin/README.md). Needs spin and gcc; not part of CI.
spin-compare:
	GO=$(GO) bash testdata/spin/compare.sh
	GO=$(GO) bash testdata/spin/paired.sh

# The SimPy model of double-billing (bench/simpy_double_billing.py, needs
# Debian's python3-simpy3) beside once matrix --workers 1 on the same
# 10-operation model, one core each; prints runs/s and the ratio. Not CI.
bench-peer:
	GO=$(GO) bash bench/peer.sh
