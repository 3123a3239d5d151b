# LeakLab — two commands do everything on a fresh machine:
#   make run    build and start the terminal app
#   make test   build and run the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
LINT_PATHS := Package.swift Sources Tools Tests Scenarios

.PHONY: run install test test-quick test-stages test-unit test-terminal test-asan test-tsan test-fuzz build-asan build-tsan fuzz-build \
	run-asan run-tsan run-fuzz fuzz stress oracle leaks-oracle heap-oracle server-fixtures server-oracles run-oracles lint \
	format bench lint-bench-tree deps build clean docs-images

## run: build and start the leaklab terminal app (ARGS="check --json" runs a command;
## its output is the only thing on stdout, so it can be piped)
run:
	@./.ci/install-deps app
	@$(SWIFT) build $(BUILD_FLAGS) --product leaklab >&2
	@"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" $(ARGS)

## install: a release build of leaklab in $(PREFIX)/bin (PREFIX=~/.local by default)
PREFIX ?= $(HOME)/.local
install:
	@./.ci/install-deps app
	$(SWIFT) build -c release --product leaklab >&2
	$(SWIFT) build -c release --product LeakLabAllocationRecorder >&2
	install -d "$(PREFIX)/bin" "$(PREFIX)/lib"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/leaklab" "$(PREFIX)/bin/leaklab"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/libLeakLabAllocationRecorder.so" "$(PREFIX)/lib/"
	@echo "installed $(PREFIX)/bin/leaklab" >&2

# Every step script runs both headless (manual clock, instant) and through the
# real app in tmux (real time, side by side: one tmux session per script, up to
# TERMINAL_JOBS at once), the scripts with a person's timing included.
SCRIPTS := Scenarios/Scripts/*.leaklab Scenarios/Scripts/human-timing/*.leaklab
TERMINAL_JOBS ?= 8

# The test bundle runs under `leaklab leaks` (what `swift test --skip-build`
# runs: the XCTest tests, then the Swift Testing tests): the tests' own
# results decide first; then a leak of any of LeakLab's library types fails
# the run. Leaks the tests make on purpose are named in Tests/deliberate-leaks.supp.
OWN_TYPES := $(foreach module,LeakDetector LeakClock RetainGraph LeakTesting MemoryView ProcessLeaks \
	MemcheckOracle TextGrid StepScripts LeakLab LeakLabTerminal TerminalAutomation,--gate '$(module).*')
TEST_BUNDLE = "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/LeakLabPackageTests.xctest"
LEAKS = "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" leaks \
	--suppressions Tests/deliberate-leaks.supp $(OWN_TYPES)

## test: build and run every test: unit (under `leaklab leaks`, AddressSanitizer,
## ThreadSanitizer), snapshot, end to end, the step scripts both ways, the fuzzers
## for a bounded number of inputs, and the oracles. After the debug build, two
## lanes side by side (Tools/lanes; each lane's log is printed whole when it
## ends, the first failure stops both): the debug build's tests, and the
## sanitizers' builds and runs, which fill the cores the tests leave idle.
DEBUG_LANE := test-unit test-terminal run-oracles
SANITIZER_LANE := $(MAKE) --no-print-directory build-asan \
	&& $(MAKE) --no-print-directory -j2 --output-sync=target run-asan run-fuzz \
	&& $(MAKE) --no-print-directory build-tsan run-tsan
TEST_STAGES := $(DEBUG_LANE) build-asan run-asan run-fuzz build-tsan run-tsan
test: deps
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	@Tools/lanes "debug: $(MAKE) --no-print-directory $(DEBUG_LANE)" "sanitizers: $(SANITIZER_LANE)"

## test-quick: the inner loop: the unit suite of the debug build (both test
## libraries), without the leak gate, the scripts or the instrumented builds
test-quick: deps
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(SWIFT) test $(BUILD_FLAGS) --skip-build

## test-stages: the stages `make test` runs, lane by lane (Tools/suite-runs --stages times each)
test-stages:
	@echo $(TEST_STAGES)

## test-unit: the unit suite under `leaklab leaks` and the headless step scripts (debug build)
test-unit: deps
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(LEAKS) --output .build/leaks-xctest.txt -- $(TEST_BUNDLE) || { cat .build/leaks-xctest.txt; exit 1; }
	$(LEAKS) --output .build/leaks-swift-testing.txt -- $(TEST_BUNDLE) --testing-library swift-testing \
		|| { cat .build/leaks-swift-testing.txt; exit 1; }
	@grep -h "leaked object" .build/leaks-xctest.txt .build/leaks-swift-testing.txt
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" run $(SCRIPTS)

# The catalogue's oracle and `leaklab leaks`' oracle run side by side: both
# wait on valgrind, neither in real time. Then `leaklab heap` against the
# growth fixture's own counts. (The SwiftNIO and Hummingbird fixtures are
# `make server-oracles`: building them takes minutes.)
run-oracles:
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" oracle & oracle=$$!; \
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" leaks-oracle; status=$$?; \
	wait $$oracle && [ $$status -eq 0 ] || exit 1
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" heap-oracle

## test-terminal: every step script through the real app in tmux (real time,
## TERMINAL_JOBS sessions side by side)
test-terminal: deps
	$(SWIFT) build $(BUILD_FLAGS) --product leaklab
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" run --terminal --jobs $(TERMINAL_JOBS) $(SCRIPTS)

# The sanitizers' options: stop at the first error; LeakSanitizer (part of
# ASan) ignores only the deliberate leaks listed in Tests/Sanitizers/lsan.supp.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

## test-asan: the unit suite under AddressSanitizer and its leak checker (.build-asan)
test-asan: build-asan
	$(MAKE) run-asan

## test-tsan: the unit suite under ThreadSanitizer (.build-tsan)
test-tsan: build-tsan
	$(MAKE) run-tsan

# Instrumented builds leave the lint, swift-syntax and the benchmarks out
# (Package.swift); the ASan build has the fuzz targets as libFuzzer binaries,
# the TSan build only the libraries whose tests run threads together.
build-asan: deps
	LEAKLAB_INSTRUMENTED=asan $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan

run-asan:
	LEAKLAB_INSTRUMENTED=asan $(ASAN_ENV) $(SWIFT) test --skip-build --scratch-path .build-asan

build-tsan: deps
	LEAKLAB_INSTRUMENTED=tsan $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan

run-tsan:
	LEAKLAB_INSTRUMENTED=tsan $(TSAN_ENV) $(SWIFT) test --skip-build --scratch-path .build-tsan

# `make fuzz`'s libFuzzer binaries (swiftc -sanitize=fuzzer on every module,
# with AddressSanitizer) in .build-fuzz; `make test` runs the ASan build's.
FUZZ_BUILD := LEAKLAB_INSTRUMENTED=fuzz $(SWIFT) build --scratch-path .build-fuzz --sanitize=address \
	-Xswiftc -sanitize=fuzzer -Xswiftc -DLEAKLAB_FUZZ
# `make test`'s bounded runs: a fixed seed, so a run is the same inputs every
# time (a script runs a scenario: hundreds, not thousands, per minute).
FUZZ_SCRIPT_RUNS ?= 400
FUZZ_EXPLAINER_RUNS ?= 3000
FUZZ_SECONDS ?= 600
FUZZ_BIN ?= .build-fuzz/debug
# The scenarios leak on purpose, so the script fuzzer does not check for leaks.
FUZZ_SCRIPTS = ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BIN)/FuzzStepScripts -timeout=30
FUZZ_EXPLAINER = $(FUZZ_BIN)/FuzzExplainer -timeout=30

fuzz-build: deps
	$(FUZZ_BUILD) --product FuzzStepScripts
	$(FUZZ_BUILD) --product FuzzExplainer

## test-fuzz: both fuzz targets for a bounded number of inputs (FUZZ_SCRIPT_RUNS, FUZZ_EXPLAINER_RUNS, new
## inputs in a throwaway corpus; the scripts start from Scenarios/Scripts), as
## `make test` runs them: the ASan build's binaries
test-fuzz: build-asan
	$(MAKE) run-fuzz

run-fuzz: FUZZ_BIN = .build-asan/debug
run-fuzz:
	@corpus=$$(mktemp -d) && mkdir -p $$corpus/scripts $$corpus/explainer && \
	$(FUZZ_SCRIPTS) -seed=1 -runs=$(FUZZ_SCRIPT_RUNS) -artifact_prefix=$$corpus/ $$corpus/scripts Scenarios/Scripts && \
	$(FUZZ_EXPLAINER) -seed=1 -runs=$(FUZZ_EXPLAINER_RUNS) -artifact_prefix=$$corpus/ $$corpus/explainer && \
	rm -rf $$corpus

## fuzz: both fuzz targets for FUZZ_SECONDS each, keeping what they find in
## .fuzz/ (inputs that crash are saved there as crash-*; replay one with
## `swift run FuzzStepScripts .fuzz/crash-…`)
fuzz: fuzz-build
	mkdir -p .fuzz/scripts .fuzz/explainer
	$(FUZZ_SCRIPTS) -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz/ .fuzz/scripts Scenarios/Scripts
	$(FUZZ_EXPLAINER) -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz/ .fuzz/explainer

## stress: the 20-second concurrent-mutation stress, RUNS times with and
## without naming (release build); counts crashes
STRESS_RUNS ?= 10
stress: deps
	$(SWIFT) build -c release --product LeakLabStress
	@bin="$$($(SWIFT) build -c release --show-bin-path)/LeakLabStress"; crashes=0; \
	for naming in "" --naming; do for run in $$(seq 1 $(STRESS_RUNS)); do \
	  "$$bin" --seconds 20 --seed $$run $$naming || crashes=$$((crashes + 1)); \
	done; done; echo "stress: $$crashes crash(es) in $$((2 * $(STRESS_RUNS))) runs"; [ $$crashes -eq 0 ]

## oracle: check every scenario's verdict against valgrind memcheck (debug build)
oracle:
	@./.ci/install-deps oracle
	$(SWIFT) build $(BUILD_FLAGS) --product leaklab
	$(SWIFT) build $(BUILD_FLAGS) --product LeakLabProbe
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" oracle $(ARGS)

## leaks-oracle: check `leaklab leaks` against valgrind memcheck (ARGS=--catalogue adds the catalogue)
leaks-oracle:
	@./.ci/install-deps oracle
	$(SWIFT) build $(BUILD_FLAGS)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" leaks-oracle $(ARGS)

# The SwiftNIO and Hummingbird programs (a package of their own, so the main
# package's builds never build SwiftNIO or Hummingbird).
SERVER_FIXTURES_BIN = "$$(cd Tools/ServerFixtures && $(SWIFT) build $(BUILD_FLAGS) --show-bin-path)"

server-fixtures:
	cd Tools/ServerFixtures && $(SWIFT) build $(BUILD_FLAGS)

## heap-oracle: check `leaklab heap` against the growth fixtures' own counts, at exit and running
## (GrowingHeap, and the Hummingbird servers AuditTrail, ResponseCache, ObserverList)
heap-oracle: server-fixtures
	$(SWIFT) build $(BUILD_FLAGS)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" heap-oracle --servers $(SERVER_FIXTURES_BIN)

## server-oracles: `leaklab leaks` and `leaklab heap` on the SwiftNIO and Hummingbird
## server fixtures (Tools/ServerFixtures), against memcheck and the servers' own counts
server-oracles: server-fixtures
	$(SWIFT) build $(BUILD_FLAGS)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" leaks-oracle --servers $(SERVER_FIXTURES_BIN)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" heap-oracle --servers $(SERVER_FIXTURES_BIN)

## lint: check formatting with the toolchain's swift-format
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

## format: rewrite sources in place with swift-format
format:
	$(SWIFT) format --in-place --recursive $(LINT_PATHS)

## bench: release-build benchmarks; prints tables with medians and ratios
## (one process per section: a section's heap and threads don't slow the next)
bench: deps lint-bench-tree
	$(SWIFT) run -c release LeakLabBenchmarks detector
	$(SWIFT) run -c release LeakLabBenchmarks retaingraph
	$(SWIFT) run -c release LeakLabBenchmarks graph
	$(SWIFT) run -c release LeakLabBenchmarks lint $(LINT_BENCH_TREE)
	$(SWIFT) run -c release LeakLabBenchmarks memoryview
	$(SWIFT) run -c release LeakLabBenchmarks census
	$(SWIFT) build -c release --product leaklab
	$(SWIFT) build -c release --product LiveObjects
	$(SWIFT) run -c release LeakLabBenchmarks leaks
	$(SWIFT) build -c release --product LeakLabAllocationRecorder
	$(MAKE) --no-print-directory server-fixtures
	$(SWIFT) run -c release LeakLabBenchmarks sites

## docs-images: the pictures the README shows, made from the real program
## (the DOT `leaklab explain` prints, rendered by Graphviz); a test checks they are current
DOCS_IMAGES := docs/images
docs-images: deps
	$(SWIFT) build $(BUILD_FLAGS) --product leaklab
	mkdir -p $(DOCS_IMAGES)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" explain alert-action-capture --format dot \
		> $(DOCS_IMAGES)/alert-action-capture.dot
	dot -Tsvg $(DOCS_IMAGES)/alert-action-capture.dot -o $(DOCS_IMAGES)/alert-action-capture.svg

# The lint benchmark's tree: the sources of Swift packages this machine carries
# as bare git repositories, extracted (read-only use, never committed) under .build.
LINT_BENCH_TREE := .build/lint-bench-tree
LINT_BENCH_PACKAGES := apple/swift-nio apple/swift-collections vapor/vapor apple/swift-argument-parser \
	hummingbird-project/hummingbird
lint-bench-tree:
	@for package in $(LINT_BENCH_PACKAGES); do \
	  repo=/opt/swift-packages/$$package.git; target=$(LINT_BENCH_TREE)/$$(basename $$package); \
	  if [ ! -d $$repo ]; then echo "lint benchmark: $$repo not found, skipped"; continue; fi; \
	  if [ ! -d $$target ]; then mkdir -p $$target && \
	    git -C $$repo archive $$(git -C $$repo tag | sort -V | tail -1) | tar -x -C $$target; fi; \
	done

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz

## deps: install the system packages the project needs (apt, as root) or say which
deps:
	@./.ci/install-deps

# The lint's precision on real code (docs/lint-precision.md, issue 27): the trees
# judged there, extracted read-only under LINT_PRECISION_TREES (never committed):
# the server packages from this machine's bare repositories at their newest tag,
# the apps cloned from GitHub at the commits the record names. `lint-precision`
# lints each tree twice, samples its findings with the record's fixed seed and
# fails if a sampled finding has no verdict or a tree's precision is under 90 %.
.PHONY: lint-precision lint-precision-trees
LINT_PRECISION_TREES := .build/lint-precision-trees
LINT_PRECISION_APPS := Automattic/pocket-casts-ios@c23892d1f47bc44d422fa06c389b49820aa04dd3 \
	home-assistant/iOS@d722d7811aec72397d05837477c5f146943b6248 \
	mastodon/mastodon-ios@a9e088a9c7b88720fed5eefdd2dc1606b5f21dc8 \
	Ranchero-Software/NetNewsWire@834decfad37802ef24d8a74897427a9eee57afdd \
	Dimillian/IceCubesApp@0fc41d2ced2e3e735bd9c42d5ae6dea16e63d618
LINT_PRECISION_PACKAGES := apple/swift-nio vapor/vapor hummingbird-project/hummingbird-websocket \
	swift-server/async-http-client vapor/postgres-nio hummingbird-project/hummingbird apple/swift-nio-ssh \
	grpc/grpc-swift-nio-transport swift-server/swift-service-lifecycle
lint-precision-trees:
	@mkdir -p $(LINT_PRECISION_TREES)
	@for app in $(LINT_PRECISION_APPS); do \
	  repo=$${app%@*}; commit=$${app#*@}; target=$(LINT_PRECISION_TREES)/$$(echo $$repo | tr / +); \
	  if [ ! -d $$target ]; then tmp=$$(mktemp -d) && git clone -q --filter=blob:none --no-checkout \
	    https://github.com/$$repo.git $$tmp && mkdir -p $$target && \
	    git -C $$tmp archive $$commit -- '*.swift' | tar -x -C $$target; rm -rf $$tmp; fi; \
	done
	@for package in $(LINT_PRECISION_PACKAGES); do \
	  repo=/opt/swift-packages/$$package.git; target=$(LINT_PRECISION_TREES)/$$(echo $$package | tr / +); \
	  if [ ! -d $$repo ]; then echo "lint precision: $$repo not found, skipped"; continue; fi; \
	  if [ ! -d $$target ]; then mkdir -p $$target && \
	    git -C $$repo archive $$(git -C $$repo tag | sort -V | tail -1) | tar -x -C $$target; fi; \
	done
lint-precision: lint-precision-trees
	$(SWIFT) build -c release --product LintPrecision
	bin="$$($(SWIFT) build -c release --show-bin-path)" && cd $(LINT_PRECISION_TREES) && "$$bin/LintPrecision" check \
	  "$(CURDIR)/docs/lint-precision.md" $(foreach app,$(LINT_PRECISION_APPS),$(subst /,+,$(firstword $(subst @, ,$(app))))) \
	  $(subst /,+,$(LINT_PRECISION_PACKAGES))
