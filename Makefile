# LeakLab — two commands do everything on a fresh machine:
#   make run    build and start the terminal app
#   make test   build and run the whole test suite
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?=
LINT_PATHS := Package.swift Sources Tools Tests Scenarios

.PHONY: run test oracle lint format bench lint-bench-tree deps build clean docs-images

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
bench: deps lint-bench-tree
	$(SWIFT) run -c release LeakLabBenchmarks detector
	$(SWIFT) run -c release LeakLabBenchmarks retaingraph
	$(SWIFT) run -c release LeakLabBenchmarks graph
	$(SWIFT) run -c release LeakLabBenchmarks lint $(LINT_BENCH_TREE)

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
	rm -rf .build

## deps: install the system packages the project needs (apt, as root) or say which
deps:
	@./.ci/install-deps
