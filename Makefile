# The two commands a user needs: `make run` (the dashboard) and `make test`.
# Both install missing system libraries first (scripts/install-deps).

SWIFT ?= swift
ARGS ?=

.PHONY: run test deps release bench

run: release
	.build/release/termcanvas $(ARGS)

test: deps
	$(SWIFT) test

deps:
	@scripts/install-deps

release: deps
	$(SWIFT) build -c release --product termcanvas

# Figures for the closing notes: render micro-benchmark and terminal measurements (tuiprobe).
bench: release
	$(SWIFT) run -c release tc-bench
	scripts/bench-tui
