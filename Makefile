# The two commands a user needs: `make run` (the dashboard) and `make test`.
# Both install missing system libraries first (scripts/install-deps).

SWIFT ?= swift
ARGS ?=

.PHONY: run test deps release bench bench-bff

run: release
	.build/release/termcanvas $(ARGS)

# The HTTP client's and the sync engine's tests measure timeouts, backoff and reconnects against the clock, so they run
# in a process of their own: in the big parallel run, CPU-heavy tests hold Swift's two cooperative
# threads for seconds at a time and would make those clocks lie.
test: deps
	$(SWIFT) test --skip HTTPClientTests --skip MicroAppSyncTests
	$(SWIFT) test --skip-build --filter "HTTPClientTests|MicroAppSyncTests"

deps:
	@scripts/install-deps

# The Swift runtime is linked statically: it starts in ~14 ms instead of ~23 ms.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product termcanvas

# Figures for the closing notes: render micro-benchmark and terminal measurements (tuiprobe).
bench: release
	$(SWIFT) run -c release tc-bench
	scripts/bench-tui

# Figures of the micro-app server (issue 4): wrk on loopback, SSE fan-out, peak RSS.
bench-bff: release
	scripts/bench-bff
