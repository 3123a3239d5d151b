# LeakLab — two commands do everything on a fresh machine:
#   make run    build and start the terminal app
#   make test   build and run the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
LINT_PATHS := Package.swift Sources Tools Tests Scenarios

.PHONY: run test oracle lint format bench deps build clean

## run: build and start the leaklab terminal app
run: deps
	$(SWIFT) build $(BUILD_FLAGS) --product leaklab
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" $(ARGS)

# Step scripts run through the real app in tmux by `make test` (real time:
# the ones without long waits); all of them also run headless.
TERMINAL_SCRIPTS := Scenarios/Scripts/closure-capture.strong.leaklab \
	Scenarios/Scripts/closure-capture.weak.leaklab \
	Scenarios/Scripts/alert-action-capture.strong.leaklab \
	Scenarios/Scripts/notification-observer.weak.leaklab

## test: build and run every test (unit, snapshot, end to end), then the step scripts
test: deps
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(SWIFT) test $(BUILD_FLAGS) --skip-build
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" run Scenarios/Scripts/*.leaklab
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" run --terminal $(TERMINAL_SCRIPTS)
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" oracle

## oracle: check every scenario's verdict against valgrind memcheck (debug build)
oracle: deps
	$(SWIFT) build $(BUILD_FLAGS) --product leaklab
	$(SWIFT) build $(BUILD_FLAGS) --product LeakLabProbe
	"$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/leaklab" oracle $(ARGS)

## lint: check formatting with the toolchain's swift-format
lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

## format: rewrite sources in place with swift-format
format:
	$(SWIFT) format --in-place --recursive $(LINT_PATHS)

## bench: release-build benchmarks; prints tables with medians and ratios
## (one process per section: a section's heap and threads don't slow the next)
bench: deps
	$(SWIFT) run -c release LeakLabBenchmarks detector
	$(SWIFT) run -c release LeakLabBenchmarks retaingraph

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

clean:
	rm -rf .build

## deps: install the system packages the project needs (apt, as root) or say which
deps:
	@./.ci/install-deps
