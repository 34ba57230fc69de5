# The two commands a user needs: `make run` (the dashboard) and `make test`.
# Both install missing system libraries first (scripts/install-deps; the tests' tools too).

SWIFT ?= swift
ARGS ?=
PREFIX ?= /usr/local
DESTDIR ?=

# The release: the Swift runtime linked statically (it starts in ~14 ms instead of ~23 ms), the
# server with ICU's data cut to what it uses (scripts/icu-data: 34 -> 8 MB; SWIFT names the
# toolchain it reads). One build plan for every product (the dashboard, the micro-app server it
# starts, `termcanvas-bff`, and `tc-bench`): two `--product` builds rebuild each other's shared
# modules, so every `make run` took minutes.
BUILD_RELEASE = SWIFT=$(SWIFT) scripts/icu-data Sources/CShims/CICUData && $(SWIFT) build -c release --static-swift-stdlib

# Every build records the commit it is built from, for `--version` (scripts/build-info rewrites
# its header only when the commit changed, so an unchanged tree builds nothing again).
$(shell scripts/build-info)

.PHONY: run test deps test-deps release install uninstall man dist deb image bench bench-peers bench-bff bench-widgets bench-limits bench-hostile-member bench-apps bench-hostile-apps bench-remote bench-hostile-entries bench-instances bench-shared bench-marketplace

# The release build is skipped when no source is newer than the dashboard: even a build with
# nothing to do plans and compiles the package plugins, ~10 s of every start.
run: .build/release/termcanvas
	.build/release/termcanvas $(ARGS)

.build/release/termcanvas: Package.swift $(shell find Sources -type f) | deps
	$(BUILD_RELEASE)
	@touch $@

# Seven passes of one build, then a script. First the CalDAV sync's tests alone: they make
# .build/caldav-venv (Radicale and python caldav from PyPI) on a fresh machine, and pip's minute
# of both cores beside the first pass's timing tests failed a score of them. In one big parallel run, CPU-heavy tests hold Swift's two
# cooperative threads for seconds at a time: the end-to-end tests (real binaries in tmux, real
# servers) get a pass of their own; so do the micro-apps' tests on real processes, without and in
# tmux, one pass each (apps writing 100 MB among them, and generated apps on their trial runs,
# which would slow the terminal tests' timing, and each pass checks no app process is left; the
# single sign-on tests, whose identity providers are Python processes, run with the first), and
# the HTTP client's, the sync engine's and the model client's tests, which measure timeouts,
# backoff and reconnects against the clock, with the server's connection and stream limits (a
# place freed within seconds, which the first pass's load delayed past them three times in three
# runs). The server's suite runs twice: on SQLite with the rest,
# then on a PostgreSQL server it starts for itself, at most four tests holding a database at once
# (TestDatabase: all at once, their servers would starve each other); last, the README's two instances
# behind nginx, started on loopback and checked (deploy/test-two-instances), the server under
# faults: PostgreSQL restarted under writers, SIGKILL amid keyed writes (deploy/test-faults), and
# the server against its API document, checked by schemathesis (deploy/test-conformance), and
# `make install`'s tree, run from where it lands, and `make uninstall` (deploy/test-install); then
# the release, packaged: the Debian package installed in a clean Debian root, the server's image
# inspected and run by podman (deploy/test-packages). After
# each pass the system's temporary folder must have kept its mode (scripts/tmp-mode). A pass that
# runs past PASS_MINUTES is stopped and shows where each test thread waited (scripts/test-pass).
PASS_MINUTES ?= 20
test: test-deps
	@scripts/tmp-mode save
	$(SWIFT) build --build-tests
	scripts/test-pass $(PASS_MINUTES) "the CalDAV pass" -- $(SWIFT) test --skip-build --filter "BFFTests.CalDAVTests"
	@scripts/tmp-mode check "the CalDAV pass"
	scripts/test-pass $(PASS_MINUTES) "the first pass" -- $(SWIFT) test --skip-build --skip HTTPClientTests --skip ServerSyncTests --skip ModelClientTests --skip EndToEndTests --skip ProcessAppTests --skip SandboxAppTests --skip MicroAppGeneratorTests --skip "BFFTests.SingleSignOn" --skip "BFFTests.ServerLimitsTests" --skip "BFFTests.CalDAVTests"
	@scripts/tmp-mode check "the first pass"
	scripts/test-pass $(PASS_MINUTES) "the PostgreSQL pass" -- env TERMCANVAS_TEST_DATABASE=postgres $(SWIFT) test --skip-build --filter BFFTests
	@scripts/tmp-mode check "the PostgreSQL pass"
	scripts/test-pass $(PASS_MINUTES) "the end-to-end pass" -- $(SWIFT) test --skip-build --filter EndToEndTests --skip MicroAppProcessTests
	@scripts/tmp-mode check "the end-to-end pass"
	scripts/test-pass $(PASS_MINUTES) "the app processes' pass" -- $(SWIFT) test --skip-build --filter "ProcessAppTests|SandboxAppTests|MicroAppGeneratorTests|BFFTests.SingleSignOn"
	@scripts/tmp-mode check "the app processes' pass"
	scripts/test-pass $(PASS_MINUTES) "the app processes' pass in tmux" -- $(SWIFT) test --skip-build --filter MicroAppProcessTests
	@scripts/tmp-mode check "the app processes' pass in tmux"
	scripts/test-pass $(PASS_MINUTES) "the clients' pass" -- $(SWIFT) test --skip-build --filter "HTTPClientTests|ServerSyncTests|ModelClientTests|BFFTests.ServerLimitsTests"
	@scripts/tmp-mode check "the clients' pass"
	deploy/test-two-instances --bff .build/debug/termcanvas-bff
	deploy/test-faults --bff .build/debug/termcanvas-bff
	deploy/test-conformance --bff .build/debug/termcanvas-bff
	deploy/test-install --build .build/debug
	$(BUILD_RELEASE)
	deploy/test-packages --build .build/release
	@scripts/tmp-mode check "the deploy tests"

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --for-tests

# The server against its API document, checked by schemathesis (pinned, in .build/schemathesis-venv):
# every check over every operation (deploy/test-conformance), as `make test` does; on its own, with
# `ARGS="--seed N --examples N"` to explore further.
conformance: deps
	$(SWIFT) build --product termcanvas-bff
	deploy/test-conformance $(ARGS)

release: deps
	$(BUILD_RELEASE)

# The programs, presets, themes, shipped micro-apps, man pages, completions (bash, zsh, fish) and
# the server's systemd unit under $(DESTDIR)$(PREFIX), where the file-system hierarchy says
# (scripts/install-tree); the programs find their presets and apps there. It builds nothing, so
# `sudo make install` leaves no file of root's in the tree: `make release man` first, as yourself.
install:
	scripts/install-tree $(PREFIX) $(DESTDIR)

uninstall:
	scripts/install-tree --uninstall $(PREFIX) $(DESTDIR)

# The release's tarball with its checksums, in .build/dist (scripts/dist).
dist: release man
	scripts/dist

# The Debian package, in .build/dist (scripts/deb), and the server's container image,
# localhost/termcanvas-bff:VERSION (scripts/image).
deb: release man
	scripts/deb

image: release
	scripts/image

# The man pages, from the programs' command definitions, into .build/man (scripts/man-pages).
man: deps
	scripts/man-pages

# Figures for the closing notes: render micro-benchmark and terminal measurements (tuiprobe).
bench: release
	$(SWIFT) run -c release --static-swift-stdlib tc-bench
	scripts/bench-tui

# The dashboard beside irssi and calcurse (issue 28), interleaved in one run: key to screen, bytes
# per key, first frame, peak RSS, binary size.
bench-peers: release
	scripts/bench-peers

# Figures of the micro-app server (issue 4): wrk on loopback, SSE fan-out, peak RSS.
bench-bff: release
	scripts/bench-bff

# Figures of the micro-app widgets (issue 5): first frame with a warm cache, keys with a large
# history, idle, peak RSS (tuiprobe).
bench-widgets: release
	scripts/bench-widgets

# The load held at the caps (issue 12): every live stream and connection taken, /health timed.
bench-limits: release
	scripts/bench-limits

# A shared canvas's member who does not behave (issue 38): the largest canvas's GET and setState,
# another user's todo GET and /health beside that member's most expensive edits on 8 connections.
bench-hostile-member: release
	scripts/bench-hostile-member

# Micro-app figures (issue 13): first frames with apps, keys beside them, an app's view to the
# screen, idle with apps, memory per app (tuiprobe).
bench-apps: release
	scripts/bench-apps

# Beside a hostile micro-app (issue 25): the dashboard's CPU over 10 s and key latency in another
# pane, beside an app that floods one endless line and one that sends ~1000 views a second.
bench-hostile-apps: release
	scripts/bench-hostile-apps

# Remote micro-app figures (issue 15): webhook to screen and key round trip through the server's
# proxy and apps/deploys' entry (tuiprobe's pseudo-terminal).
bench-remote: release
	scripts/bench-remote

# Hostile entries against the server's other routes (issue 15): GET /api/todo/items under wrk alone,
# beside 16 busy sessions of a well-behaved entry, and beside 16 of entries that hang, flood, send
# garbage or escapes.
bench-hostile-entries: release
	scripts/bench-hostile-entries

# Several instances on PostgreSQL (issue 16): wrk through one and two instances beside SQLite, fan-out
# to 500 clients over two instances, streams resuming after an instance is killed.
bench-instances: release
	scripts/bench-instances

# A shared canvas open beside the same layout kept locally (issue 29): key latency, idle, memory.
bench-shared: release
	scripts/bench-shared

# Packages in a registry: an install timed, the catalog opened over 1 and 501 packages.
bench-marketplace: release
	scripts/bench-marketplace
