# once — build, test, benchmark, lint.
GO        ?= go
BENCHTIME ?= 1s
COUNT     ?= 6
BENCHPKGS ?= ./sim/ ./scenarios/ ./scenarios/enginetest/ ./cmd/once/
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 30s
FUZZMINIMIZETIME ?= 5s

.PHONY: generate matrix-100k brokers broker-agreement live-agreement all build test test-integration test-split test-short bench bench-compare lint fmt update fuzz clean spin-compare bench-peer bench-explore

all: build test

build:
	$(GO) build -o bin/once ./cmd/once

# Rewrite the generated code: each role family's views_gen.go and
# views_gen_test.go from the slot tags of its typed views (viewgen).
# TestGeneratedFilesAreCurrent, in make test, fails when they are stale.
generate:
	$(GO) generate ./scenarios/roles/...

# The test command of the README and of CI: formatting and every unit
# test, with go test's own vet checks (atomic, printf, tests, …). Fast (no
# process, browser, database or scheduler is started): the tests that start
# them are integration tests, run by test-integration.
#
# The full vet pass is in lint (CI runs it too), with the integration tag:
# that build holds every file of every package (the tag only adds files;
# test-split refuses a file that the tag would leave out), so it vets unit
# and integration tests alike with every analyzer. It is not repeated here
# because each vet pass with other tags or analyzers re-analyses every
# dependency for its facts — the standard library, SQLite's and libc's
# generated code — about 60 s of CPU each with an empty build cache.
test: test-split
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) test -count=1 ./...

# The integration tests: lab nodes in Python and Go, the TUI in tmux, the
# lesson pack in Chromium, live mode on SQLite and PostgreSQL, the deploy/
# recipes (and a real Slurm cluster where ONCE_TEST_SLURM is set, as
# .ci/run sets it). They live in *_integration_test.go files built with
# -tags integration, and their names start with TestIntegration.
#
# go test's default -timeout (10 minutes a package binary): live's
# integration tests took 191 s at load 6-11 on the shared 2-core machine
# (docs/performance.md), the other packages less. live interrupts every
# once its tests start a little before that timeout (testCtx in
# live/main_integration_test.go), so a test that hangs fails with its
# cleanups run instead of a panic that skips them.
test-integration: test-split
	$(GO) test -count=1 -tags integration -run '^TestIntegration' ./...
	cd deploy && $(GO) vet ./... && $(GO) test -count=1 ./...

# The split's rule, checked before either test target: an integration
# test file carries the build tag and holds only TestIntegration tests,
# and no other test file declares one; no file is left out by the tag.
# And the engine's tests do not depend on the catalog built on it: nothing
# sim/'s tests import, directly or not, is under scenarios/ (the catalog
# tests are in scenarios/enginetest).
test-split:
	@deps="$$($(GO) list -test -deps ./sim/... | grep '^github.com/oncesim/once/scenarios\(/\|$$\)')"; \
	  if [ -n "$$deps" ]; then echo "sim/ tests import the catalog (move them to scenarios/enginetest):"; echo "$$deps"; exit 1; fi
	@bad=0; for f in $$(git ls-files '*_integration_test.go'); do \
	  if [ "$$(head -1 $$f)" != "//go:build integration" ]; then echo "$$f: first line must be //go:build integration"; bad=1; fi; \
	  if grep -n '^func Test' $$f | grep -v '^[0-9]*:func TestIntegration\|^[0-9]*:func TestMain(' ; then echo "$$f: its tests must be named TestIntegration…"; bad=1; fi; \
	done; \
	for f in $$(git ls-files '*_test.go' | grep -v '_integration_test.go$$'); do \
	  if grep -n '^func TestIntegration' $$f; then echo "$$f: a TestIntegration test belongs in a *_integration_test.go file"; bad=1; fi; \
	done; \
	for f in $$(git grep -l '^//go:build.*!integration' -- '*.go'); do \
	  echo "$$f: a file the integration tag leaves out is not vetted by make test (its one vet pass has the tag)"; bad=1; \
	done; exit $$bad

# The real brokers of once live --broker (RabbitMQ, Redis, NATS from
# Debian's packages, as root; kfake is a Go package): installs them if
# missing, leaves no system service running, then checks that each starts
# on loopback, answers and stops with nothing left.
brokers:
	.ci/brokers
	$(GO) test -count=1 -tags integration -run '^TestIntegrationServerLifecycle$$' -v ./brokers/ | grep -E 'ready in|stopped in|^(ok|FAIL|---)'

# Real brokers against the simulator, per operation, on every scenario and
# variant a --broker driver runs, over BROKER_SEEDS seeds: records the
# results in brokers/testdata/broker-agreement.json and writes
# docs/broker-agreement.md from them (TestBrokerAgreementDoc checks the
# two agree); fails under 95 % (in all or in one row) or on a
# disagreement without a documented reason. Starts RabbitMQ, Redis and
# NATS (make brokers): not CI.
# BROKER=rabbitmq (redis, nats, kfake) runs only that broker's rows and
# keeps the record's others.
BROKER_SEEDS ?= 20
broker-agreement:
	$(GO) run ./brokers/agreement -seeds $(BROKER_SEEDS) -min 95 $(if $(BROKER),-broker $(BROKER))

test-short:
	$(GO) test -short ./...

# Refresh the golden files (CLI outputs, canonical traces, pinned digests
# and explore verdicts, SVG diagrams, TUI screens); review the diff before
# committing. The pinned digests refuse to move with an unchanged trace
# unless sim.DigestFormat was bumped.
#
# make update ONLY=NAME rewrites only the goldens of catalog scenario NAME
# or of a family (cli, lesson, traces, digests, explore-verdicts,
# reference, svg, screens, docs, catalog-index; a comma list mixes them). A golden outside
# ONLY that differs is left as it is and listed as a failure, so drift
# elsewhere is never blessed with the change that was asked for. Every
# step runs; at the end the goldens that changed are listed, and the
# target fails if a step did.
UPDATE_STEPS = \
	"./cmd/once/ TestCLI$$" \
	"./cmd/once/ TestLessonPlain$$" \
	"./scenarios/ TestCanonicalTraces$$" \
	"./scenarios/ TestPinnedDigests$$" \
	"./scenarios/ TestPinnedExploreVerdicts$$" \
	"./scenarios/ TestCatalogIndexIsCurrent$$" \
	"./scenarios/fileschema/ TestReference$$" \
	"./report/svg/ TestSVGGolden$$|TestSweepSVGGolden$$" \
	"./tui/ TestScreensGolden$$" \
	"./scenarios/ TestReadmeCatalogGenerated$$" \
	"./cmd/once/ TestDocsListEveryFaultFlag$$|TestDocsFlagTables$$|TestReadmeShowsTheHeadlineAsPrinted$$|TestReadmeLessonCountsGenerated$$|TestReadmeMatrixSeedsGenerated$$"
GOLDENS = testdata tui/testdata scenarios/catalog_index.json docs/scenario-files.md docs/commands.md README.md

update:
	@export ONCE_ONLY='$(ONLY)'; \
	  $(GO) test -count=1 ./scenarios/ -run '^TestGoldenOnly$$' >/dev/null || { ONCE_ONLY='$(ONLY)' $(GO) test -count=1 ./scenarios/ -run '^TestGoldenOnly$$' | grep -v '^FAIL\|^---\|^ok'; exit 2; }; \
	  failed=""; \
	  for step in $(UPDATE_STEPS); do \
	    pkg=$${step%% *}; run=$${step#* }; \
	    echo "update: $$pkg -run '$$run'$${ONCE_ONLY:+ (ONLY=$$ONCE_ONLY)}"; \
	    $(GO) test -count=1 $$pkg -run "$$run" -rewrite || failed="$$failed $$pkg($$run)"; \
	  done; \
	  echo "goldens changed:"; git status --porcelain -- $(GOLDENS) | sed 's/^/  /'; \
	  if [ -n "$$failed" ]; then echo "update: failed or left drift outside ONLY:$$failed"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(COUNT) $(BENCHPKGS) | tee bench.out
	$(GO) install golang.org/x/perf/cmd/benchstat@latest
	"$$($(GO) env GOPATH)/bin/benchstat" bench.out

# The benchmarks of BASE (default main) and of the working tree, side by
# side with benchstat (bench-old.out, bench.out): make bench-compare
# BASE=<rev> BENCH=<regexp>.
bench-compare:
	GO=$(GO) COUNT=$(COUNT) BENCHTIME=$(BENCHTIME) BENCHPKGS="$(BENCHPKGS)" bash bench/compare.sh

# gofmt, every vet analyzer over unit and integration files alike (see test),
# staticcheck over both modules.
lint:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	gofmt -l . | (! grep .)
	$(GO) vet -tags integration ./...
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

# The catalog's 100,000-seed matrix, every every-run claim checked
# (issue 28): SHARDS shards one after another on this machine, then their
# merge, which exits as `once matrix --seeds 100000 --check` would. About
# 15 min of CPU (7 to 8 min on 2 idle cores): not in .ci/run; a CI with parallel jobs
# runs `.ci/matrix shard i n DIR` in each and `.ci/matrix merge DIR` after.
SHARDS ?= 4
matrix-100k:
	.ci/matrix all $(SHARDS) bin/matrix-100k

clean:
	rm -rf bin bench.out bench-old.out

# SPIN on testdata/spin/double_billing.pml against once explore on the same
# bounds (see testdata/spin/README.md). Needs spin and gcc; not part of CI.
spin-compare:
	GO=$(GO) bash testdata/spin/compare.sh
	GO=$(GO) bash testdata/spin/paired.sh

# Lab exploration with a Python node (issue 20): the idempotent Python
# starter on double-billing, 2 operations, at most 3 faults, with python3
# as found on PATH; prints the statistics and the wall time. Not CI.
.PHONY: bench-lab
bench-lab:
	GO=$(GO) bash bench/lab.sh

# The SimPy model of double-billing (bench/simpy_double_billing.py, needs
# Debian's python3-simpy3) beside once matrix --workers 1 on the same
# 10-operation model, one core each; prints runs/s and the ratio. Not CI.
bench-peer:
	GO=$(GO) bash bench/peer.sh

# Issue 33's scaling table in one run: once explore double-billing (idem,
# loss + ack-loss, N operations / N faults) with its default reductions and
# with --reduce none, against SPIN on testdata/spin's model (-DSAFETY, hash
# table sized to the state space), and SPIN without its partial-order
# reduction up to NOREDUCE_UPTO=7. SCALE="6 7 8 9 10" by default; SPIN up
# to SPIN_UPTO=9 (about 10 GB at 9 / 9). Needs spin and gcc; not CI.
bench-explore:
	GO=$(GO) bash bench/explore.sh

# Live mode against the simulator, per operation, on every supported
# scenario and variant over SEEDS seeds, on SQLite and (ONCE_TEST_POSTGRES)
# PostgreSQL: writes docs/live-agreement.md; fails under 95 %. JOBS rows
# run at once. Starts processes; not CI (CI runs
# TestIntegrationAgreementSubset, a small subset on both databases).
SEEDS ?= 20
JOBS ?= 3
live-agreement:
	$(GO) run ./live/agreement -seeds $(SEEDS) -jobs $(JOBS) -min 95 -out docs/live-agreement.md
