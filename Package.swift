// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode is the tools-version default;
/// `ExistentialAny` makes every existential spelled `any`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// How the release executables are linked on Linux: with lld (the toolchain's own), relative
/// relocations packed (`DT_RELR`: 2.4 MB of `.rela.dyn` that the loader read and applied at every
/// start become 19 KB) and no debug information (27 MB nobody loads; the symbols stay, so a crash's
/// backtrace still names functions). The dashboard's peak memory 31.7 -> 27.7 MB and its binary
/// 118 -> 87 MB (docs/benchmarks.md, issue 28). No symbol is exported (`--no-export-dynamic`): the
/// 11 000 SwiftPM exports so tests can link an executable are 0.9 MB of tables the loader reads at
/// every start and nothing looks up in a release (peak 18.6-18.7 -> 17.5-18.2 MB, issue 56).
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--strip-debug",
         "-Xlinker", "--no-export-dynamic"],
        .when(platforms: [.linux], configuration: .release)
    ),
]

/// The dashboard is linked as the others are, with the functions its start, first frame and keys
/// run placed first (`Sources/Dashboard/termcanvas/hot-functions.order`, written by
/// `scripts/order-functions` from callgrind's list of what ran). A page the program touches maps
/// its neighbours too (64 KB around it, or its whole folio): the 1.5 MB of code that runs,
/// scattered over 13 MB, made 10 MB resident; placed first, 7 (peak memory 20.4 -> 17.7 MB).
/// Only functions in sections of their own move (ours with `-function-sections`, and most of the
/// toolchain's), so the placed code spans 5.6 MB. A function the list does not name only goes
/// where the linker puts it.
let dashboardLinking: [LinkerSetting] = releaseLinking + [
    .unsafeFlags(
        ["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/Dashboard/termcanvas/hot-functions.order",
         "-Xlinker", "--no-warn-symbol-ordering"],
        .when(platforms: [.linux], configuration: .release)
    ),
]

let package = Package(
    name: "TermCanvas",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "termcanvas", targets: ["termcanvas"]),
        .executable(name: "termcanvas-bff", targets: ["termcanvas-bff"]),
        .library(name: "ServerAPI", targets: ["ServerAPI"]),
        .library(name: "MicroAppProtocol", targets: ["MicroAppProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // Only the server's tests read YAML through Yams (the OpenAPI document, with its types).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        // Hummingbird's and postgres-nio's own, which the server also uses by name (TLS, HTTP types).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        // Targets sit in Sources/<layer>/<target>: Core (pure values), CShims, Edges (one per outside
        // thing, shared by the programs), AppHost (running micro-apps), Dashboard, Server, Testing,
        // Bench. The README's module table says what each may import; ModuleTableTests holds them to it.

        // MARK: Core: values only, no IO
        // Text and paths without Foundation: trimming, a path's parent and last component.
        .target(name: "PlainText", path: "Sources/Core/PlainText", swiftSettings: swiftSettings),
        // Days and moments as the product writes them (ISO 8601 text), and values coded as one string.
        .target(name: "CalendarTime", path: "Sources/Core/CalendarTime", swiftSettings: swiftSettings),
        // Repetition: iCalendar's recurrence rules (RFC 5545) and their expansion, pure.
        .target(name: "Recurrence", dependencies: ["CalendarTime"], path: "Sources/Core/Recurrence", swiftSettings: swiftSettings),
        // iCalendar's text (RFC 5545): components and properties as written, values of dates,
        // times and durations; nothing lost on a round trip.
        .target(name: "ICalendar", dependencies: ["CalendarTime", "Recurrence"], path: "Sources/Core/ICalendar", swiftSettings: swiftSettings),
        // WebDAV's XML (RFC 4918) read into elements by namespace and name: a reader of its own,
        // bounded, refusing document types (FoundationXML's libxml2 brings the system's ICU).
        .target(name: "WebDAVXML", dependencies: ["PlainText"], path: "Sources/Core/WebDAVXML", swiftSettings: swiftSettings),
        // Events and tasks as the server keeps them: iCalendar resources, their instances as the
        // API shows them, and changes to one instance, the following or all.
        .target(name: "CalendarItems", dependencies: ["CalendarTime", "ICalendar", "Recurrence", "ServerAPI"], path: "Sources/Core/CalendarItems",
                swiftSettings: swiftSettings),
        // Geometry, grid, canvas manager, focus, undo, event bus, keys and the commands' names.
        .target(name: "CanvasCore", path: "Sources/Core/CanvasCore", swiftSettings: swiftSettings),
        // Colours, text attributes, styles and themes.
        .target(name: "CanvasStyle", path: "Sources/Core/CanvasStyle", swiftSettings: swiftSettings),
        // The micro-app protocol, version 1: JSON-RPC 2.0 lines, its messages, view nodes and the
        // manifest, as values; no IO.
        .target(name: "MicroAppProtocol", dependencies: ["PlainText"], path: "Sources/Core/MicroAppProtocol", swiftSettings: swiftSettings),
        // Codable request/response types, paths, event names and manifest rules shared by the server
        // and its clients.
        .target(name: "ServerAPI", dependencies: ["CalendarTime", "CanvasCore"], path: "Sources/Core/ServerAPI", swiftSettings: swiftSettings),
        // Micro-app packages: the canonical archive a registry stores, its SHA-256, and what a
        // package asks for in the protocol's words.
        .target(name: "AppPackages", dependencies: ["MicroAppProtocol", "PlainText", "ServerAPI"], path: "Sources/Core/AppPackages",
                swiftSettings: swiftSettings),
        // QR codes (ISO 18004, byte mode) and their drawing as terminal lines: the sign-in's address
        // for a phone.
        .target(name: "QRCodes", path: "Sources/Core/QRCodes", swiftSettings: swiftSettings),
        // What apps' widgets say to what runs them: the server apps' commands and events, and a
        // micro-app's connection, status and updates.
        .target(
            name: "AppModel",
            dependencies: ["CalendarTime", "CanvasCore", "ServerAPI", "MicroAppProtocol"],
            path: "Sources/Core/AppModel",
            swiftSettings: swiftSettings
        ),

        // MARK: C shims: one per C library
        // ncursesw (wide-character API).
        .target(name: "CNcursesw", path: "Sources/CShims/CNcursesw", linkerSettings: [.linkedLibrary("ncursesw")]),
        // libcurl, loaded on first use (dlopen, so the dashboard's start does not pay for libcurl's
        // thirty libraries): wrappers of the functions the client calls, typed ones for the variadic
        // setopt and getinfo.
        .target(name: "CCurl", path: "Sources/CShims/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // sd-bus (libsystemd), loaded on first use: a desktop notification on the session bus.
        .target(name: "CSessionBus", path: "Sources/CShims/CSessionBus", linkerSettings: [.linkedLibrary("dl")]),
        // SQLite (the system's libsqlite3): its C API, and binding that copies text and blobs.
        .target(name: "CSQLite", path: "Sources/CShims/CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libyaml (the system's): the event parser YAML documents are composed from.
        .target(name: "CLibYAML", path: "Sources/CShims/CLibYAML", linkerSettings: [.linkedLibrary("yaml")]),
        // libdispatch's hooks for a run loop of the main thread's own (declarations only).
        .target(name: "CMainQueue", path: "Sources/CShims/CMainQueue"),
        // glibc's allocator settings (malloc.h): the dashboard's one heap.
        .target(name: "CMalloc", path: "Sources/CShims/CMalloc"),
        // The commit a binary was built from, which `make` records (`--version`).
        .target(name: "CBuildInfo", path: "Sources/CShims/CBuildInfo"),
        // ICU's data cut to what the server uses, in a release built by `make` (scripts/icu-data).
        .target(name: "CICUData", path: "Sources/CShims/CICUData", cSettings: [.define("TC_CUT_ICU_DATA", .when(configuration: .release))]),
        // libcrypto (OpenSSL 3), loaded on first use: Ed25519 keys, signatures and their check.
        .target(name: "CLibCrypto", path: "Sources/CShims/CLibCrypto", linkerSettings: [.linkedLibrary("dl")]),
        // Starting, waiting for and killing micro-app processes.
        .target(name: "CAppProcess", path: "Sources/CShims/CAppProcess", linkerSettings: [.linkedLibrary("seccomp")]),
        // glibc's spawning extensions Swift does not import: a pipe and a spawn that leak no descriptor.
        .target(name: "CSpawn", path: "Sources/CShims/CSpawn"),

        // MARK: Edges: one per outside thing, shared by the programs
        // The main thread as the dashboard's run loop: descriptors watched with poll, and the main
        // queue's work run on that thread.
        .target(name: "MainLoop", dependencies: ["CMainQueue"], path: "Sources/Edges/MainLoop", swiftSettings: swiftSettings),
        // Ed25519 signatures on the system's libcrypto: publishers' keys and what they sign.
        .target(name: "Ed25519", dependencies: ["CLibCrypto"], path: "Sources/Edges/Ed25519", swiftSettings: swiftSettings),
        // Directories (0700) and files (0600) only their owner may open, whatever the umask.
        // Detached OS threads, for work that blocks.
        .target(name: "Threads", path: "Sources/Edges/Threads", swiftSettings: swiftSettings),
        .target(name: "PrivateFiles", dependencies: ["PlainText"], path: "Sources/Edges/PrivateFiles", swiftSettings: swiftSettings),
        // The system's time zone database (/usr/share/zoneinfo), each zone read once.
        .target(name: "SystemZones", dependencies: ["CalendarTime"], path: "Sources/Edges/SystemZones", swiftSettings: swiftSettings),
        // Log files: a swift-log handler appending escaped lines to a private file.
        .target(
            name: "LogFiles",
            dependencies: ["PlainText", "PrivateFiles", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Edges/LogFiles",
            swiftSettings: swiftSettings
        ),
        // The dashboard's SQLite: connections, statements prepared once and kept, values bound,
        // transactions, migrations recorded as GRDB records them (files open either way).
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"], path: "Sources/Edges/SQLiteDatabase", swiftSettings: swiftSettings),
        // The SQLite files the product keeps: made private, moved aside only when damaged.
        .target(
            name: "SQLiteFiles",
            dependencies: ["PrivateFiles", "SQLiteDatabase"],
            path: "Sources/Edges/SQLiteFiles",
            swiftSettings: swiftSettings
        ),
        // The product's HTTP client (REST and server-sent events) on libcurl; the one Swift target
        // that talks to libcurl.
        .target(
            name: "HTTPClient",
            dependencies: ["CCurl", "CalendarTime", "CanvasCore", "PlainText", "ServerAPI", "Threads", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Edges/HTTPClient",
            swiftSettings: swiftSettings
        ),
        // A desktop notification through the session bus; the one Swift target that talks to sd-bus.
        .target(name: "SessionBus", dependencies: ["CSessionBus"], path: "Sources/Edges/SessionBus", swiftSettings: swiftSettings),
        // How clients reach a server: the local one (runtime directory, instance lock, token file,
        // launcher) and the stored credentials of remote ones.
        .target(name: "BFFAccess", dependencies: ["CSpawn", "PlainText", "PrivateFiles", "Threads"], path: "Sources/Edges/BFFAccess", swiftSettings: swiftSettings),
        // What both executables' commands share: XDG paths, log setup, password prompts.
        .target(
            name: "CommandSupport",
            dependencies: ["PlainText",
                "BFFAccess", "CBuildInfo", "LogFiles", "PrivateFiles", "ServerAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Edges/CommandSupport",
            swiftSettings: swiftSettings
        ),
        // YAML documents composed from libyaml's events (marks kept for errors, no aliases, bounded
        // depth), and YAML text written for export.
        .target(name: "YAMLDocuments", dependencies: ["CLibYAML"], path: "Sources/Edges/YAMLDocuments", swiftSettings: swiftSettings),
        // Human-editable files (YAML): layouts, themes, key maps and micro-app manifests, with errors
        // that name file, line and field; the folders micro-apps are installed in.
        .target(
            name: "CanvasFiles",
            dependencies: ["PlainText", 
                "CanvasCore", "CanvasStyle", "ServerAPI", "MicroAppProtocol", "AppModel", "AppPackages", "YAMLDocuments",
            ],
            path: "Sources/Edges/CanvasFiles",
            swiftSettings: swiftSettings
        ),

        // MARK: Micro-app host
        // Runs micro-apps: process apps (supervised: contained, bounded, restarted) and sampled
        // commands, behind the connection their widget talks to; grants checked here.
        .target(
            name: "MicroAppHost",
            dependencies: ["Threads", "PlainText", 
                "CanvasCore", "MicroAppProtocol", "AppModel", "CAppProcess", "CSpawn", "LogFiles", "PrivateFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/AppHost/MicroAppHost",
            swiftSettings: swiftSettings
        ),
        // A language model behind an OpenAI-compatible chat-completions endpoint (ai.yaml), on the
        // product's HTTP client: streamed answers, retries, errors that say what to fix.
        .target(
            name: "ModelClient",
            dependencies: ["PlainText", "CanvasFiles", "HTTPClient", "PrivateFiles", "YAMLDocuments", .product(name: "Logging", package: "swift-log")],
            path: "Sources/AppHost/ModelClient",
            swiftSettings: swiftSettings
        ),
        // Micro-apps from a sentence: the model writes one, the host checks and runs it before
        // anyone trusts it (`termcanvas apps new`).
        .target(
            name: "MicroAppGenerator",
            dependencies: ["PlainText", 
                "ModelClient", "CanvasCore", "CanvasFiles", "MicroAppHost", "AppModel", "MicroAppProtocol", "PrivateFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/AppHost/MicroAppGenerator",
            swiftSettings: swiftSettings
        ),

        // MARK: Dashboard
        // Cells, buffers, display width, the widget protocol, chrome, overlays, the host and the app loop.
        .target(
            name: "CanvasUI",
            dependencies: ["PlainText", "CalendarTime", "CanvasCore", "CanvasStyle", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Dashboard/CanvasUI",
            swiftSettings: swiftSettings
        ),
        // The one Swift target that talks to ncurses.
        .target(
            name: "NcursesTerminal",
            dependencies: ["PlainText", "CanvasUI", "CanvasCore", "CanvasStyle", "CNcursesw", "MainLoop"],
            path: "Sources/Dashboard/NcursesTerminal",
            swiftSettings: swiftSettings
        ),
        // The panes: todo, calendar, chat, event log and micro-app widgets; pure state and update,
        // rendering into a buffer.
        .target(
            name: "Widgets",
            dependencies: ["PlainText", "CalendarTime", "CanvasCore", "CanvasStyle", "CanvasUI", "ServerAPI", "AppModel", "MicroAppProtocol"],
            path: "Sources/Dashboard/Widgets",
            swiftSettings: swiftSettings
        ),
        // Layouts and their history in SQLite.
        .target(
            name: "LayoutStore",
            dependencies: ["PlainText", "CanvasCore", "PrivateFiles", "SQLiteDatabase", "SQLiteFiles"],
            path: "Sources/Dashboard/LayoutStore",
            swiftSettings: swiftSettings
        ),
        // The server apps' data on this machine and its sync with the server: cache, outbox, live
        // stream, the shared canvas's link.
        .target(
            name: "ServerSync",
            dependencies: [
                "CalendarTime", "CanvasCore", "ServerAPI", "AppModel", "MicroAppProtocol", "HTTPClient", "PlainText", "SQLiteDatabase",
                "SQLiteFiles", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Dashboard/ServerSync",
            swiftSettings: swiftSettings
        ),
        // The dashboard: composition root and command line. It links no server library, so it
        // starts fast; `serve` and `user` run `termcanvas-bff`.
        // What the dashboard installs and how it trusts it: packages from registries (pages, downloads
        // checked against them, publishers' keys, the swap into the apps folder) and the registries'
        // signed answers.
        .target(
            name: "AppInstalls",
            dependencies: ["AppModel", "AppPackages", "BFFAccess", "CanvasFiles", "CanvasUI", "CommandSupport", "Ed25519", "HTTPClient", "LayoutStore",
                           "MicroAppHost", "MicroAppProtocol", "PlainText", "PrivateFiles", "ServerAPI", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Dashboard/AppInstalls",
            swiftSettings: swiftSettings
        ),
        // Micro-apps in the dashboard's panes: the apps installed and their grants, the links to
        // their backend and to remote apps, the catalog the registries offer, the headless pane of
        // `apps try`, a crashed run's recovery, and apps installed again while it runs.
        .target(
            name: "AppPanes",
            dependencies: ["AppInstalls", "AppModel", "CanvasCore", "CanvasFiles", "CanvasStyle", "CanvasUI", "CommandSupport", "HTTPClient",
                           "LayoutStore", "MicroAppHost", "MicroAppProtocol", "ServerAPI", "Widgets", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Dashboard/AppPanes",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "termcanvas",
            dependencies: ["PlainText", "AppInstalls", "AppPanes", "CalendarItems", "ICalendar", "SystemZones",
                "CalendarTime", "CanvasCore", "CanvasStyle", "CanvasUI", "NcursesTerminal", "Widgets", "LayoutStore", "CanvasFiles",
                "BFFAccess", "CommandSupport", "HTTPClient", "ServerAPI", "AppModel", "AppPackages", "ServerSync", "PrivateFiles",
                "SQLiteFiles", "MicroAppProtocol", "MicroAppHost", "MicroAppGenerator", "ModelClient", "QRCodes", "MainLoop", "SessionBus", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Dashboard/termcanvas",
            exclude: ["hot-functions.order"],
            swiftSettings: swiftSettings,
            linkerSettings: dashboardLinking
        ),

        // MARK: Server
        // The server's data: the store core (every rule, written once as plans) over its two
        // engines, SQLite (GRDB) embedded or PostgreSQL (postgres-nio) for any number of instances,
        // with the live events they publish as they commit.
        .target(
            name: "ServerStore",
            dependencies: [
                "CalendarItems", "CalendarTime", "CanvasCore", "ICalendar", "PrivateFiles", "ServerAPI", "SQLiteFiles", "SystemZones",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/ServerStore",
            resources: [.embedInCode("Resources/confusables.txt")],
            swiftSettings: swiftSettings
        ),
        // What every route stands on: the request context, errors as JSON, the token and its
        // checks, the limits (per address, per user, per connection, in bytes), idempotent
        // requests, request IDs, metrics and the server's activity.
        .target(
            name: "ServerHTTP",
            dependencies: [
                "CanvasCore", "ServerAPI", "ServerStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/Server/ServerHTTP",
            swiftSettings: swiftSettings
        ),
        // The routes by domain: auth, todo, calendar, chat, canvases, the audit log, the registry
        // and the signed webhooks it delivers.
        .target(
            name: "ServerRoutes",
            dependencies: [
                "AppModel", "AppPackages", "CalendarItems", "CalendarTime", "CanvasCore", "CanvasFiles", "ICalendar", "MicroAppProtocol", "Recurrence",
                "ServerAPI", "ServerCalendarSync", "ServerHTTP", "ServerProxy", "ServerSSO", "ServerStore", "SystemZones",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/ServerRoutes",
            swiftSettings: swiftSettings
        ),
        // The live event streams: each user's server-sent events, resumed from an ID, kept alive.
        .target(
            name: "ServerLive",
            dependencies: [
                "ServerAPI", "ServerHTTP", "ServerStore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/ServerLive",
            swiftSettings: swiftSettings
        ),
        // The remote apps' proxy: sessions at an app's entry, its answers and stream bounded and
        // timed out, the entry's address checked against the network policy, its health watched.
        .target(
            name: "ServerProxy",
            dependencies: [
                "CalendarTime", "CanvasCore", "ServerAPI", "ServerHTTP", "ServerStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/ServerProxy",
            swiftSettings: swiftSettings
        ),
        // Calendars kept in step with elsewhere: subscriptions (an iCalendar file at a URL, read
        // through the network policy of remote apps' entries, again when due) and two-way CalDAV
        // sync (WebDAV's XML read by WebDAVXML).
        .target(
            name: "ServerCalendarSync",
            dependencies: [
                "CalendarItems", "CalendarTime", "ICalendar", "ServerAPI", "ServerProxy", "ServerStore", "SystemZones", "WebDAVXML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/ServerCalendarSync",
            swiftSettings: swiftSettings
        ),
        // Single sign-on: an OpenID Connect provider's discovery, keys (JWKS), ID tokens checked,
        // userinfo, device logins and refresh tokens, over AsyncHTTPClient.
        .target(
            name: "ServerSSO",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/Server/ServerSSO",
            swiftSettings: swiftSettings
        ),
        // The server, assembled: its configuration, the store opened with its services, the
        // routes in their order, TLS, the local account and idle exit of an embedded server.
        .target(
            name: "BFF",
            dependencies: [
                "CanvasCore", "ServerAPI", "ServerCalendarSync", "ServerHTTP", "ServerLive", "ServerProxy", "ServerRoutes", "ServerSSO", "ServerStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server/BFF",
            resources: [.embedInCode("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        // The micro-app server's executable: `termcanvas-bff serve`, `user` and `migrate`.
        .executableTarget(
            name: "termcanvas-bff",
            dependencies: [
                "BFF", "BFFAccess", "CalendarTime", "CICUData", "CanvasCore", "CommandSupport", "PrivateFiles", "ServerAPI", "ServerHTTP", "ServerProxy",
                "ServerSSO", "ServerStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Server/termcanvas-bff",
            swiftSettings: swiftSettings,
            linkerSettings: releaseLinking
        ),

        // MARK: Testing and benchmarks
        // What tests and benchmarks share: running programs, tmux sessions, loopback ports, the
        // built products, a seeded random source.
        .target(name: "TestSupport", dependencies: ["CanvasCore", "CSpawn"], path: "Sources/Testing/TestSupport", swiftSettings: swiftSettings),
        // A real server on a loopback port or unix socket with a temporary data directory (and a
        // PostgreSQL database of its own when tests run on PostgreSQL).
        .target(
            name: "BFFTesting",
            dependencies: [
                "BFF", "TestSupport", "HTTPClient", "ServerAPI", "ServerStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Testing/BFFTesting",
            swiftSettings: swiftSettings
        ),
        // Micro-benchmarks of the render path and the layout store (`swift run -c release tc-bench`).
        .executableTarget(
            name: "tc-bench",
            dependencies: ["CalendarItems", "CalendarTime", "CanvasCore", "CanvasUI", "ICalendar", "Widgets", "LayoutStore", "Recurrence",
                           "ServerAPI", "SystemZones", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Bench/tc-bench",
            swiftSettings: swiftSettings
        ),

        // Reads the README's module table and every target's imports; needs no target.
        .testTarget(name: "ModuleTableTests", swiftSettings: swiftSettings),
        .testTarget(name: "CanvasCoreTests", dependencies: ["CanvasCore", "PlainText", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ServerAPITests", dependencies: ["CalendarTime", "ServerAPI", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "CalendarItemsTests", dependencies: ["CalendarItems", "CalendarTime", "ICalendar", "Recurrence", "ServerAPI", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ICalendarTests", dependencies: ["CalendarTime", "ICalendar", "Recurrence", "TestSupport"], exclude: ["Fixtures"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "WebDAVXMLTests", dependencies: ["TestSupport", "WebDAVXML"], swiftSettings: swiftSettings),
        .testTarget(name: "RecurrenceTests", dependencies: ["CalendarTime", "Recurrence", "TestSupport"], exclude: ["oracle.py"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "SessionBusTests", dependencies: ["SessionBus", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "NcursesTerminalTests",
            dependencies: ["NcursesTerminal", "CNcursesw", "CanvasCore", "CanvasStyle", "CanvasUI", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CanvasUITests",
            dependencies: ["CanvasUI", "CalendarTime", "CanvasCore", "CanvasStyle", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WidgetsTests",
            dependencies: [
                "Widgets", "CalendarTime", "CanvasUI", "CanvasCore", "CanvasStyle", "TestSupport", "ServerAPI", "AppModel", "MicroAppProtocol",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MicroAppProtocolTests", dependencies: ["MicroAppProtocol"], swiftSettings: swiftSettings),
        .testTarget(name: "QRCodesTests", dependencies: ["QRCodes", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "AppPackagesTests", dependencies: ["AppPackages", "Ed25519", "MicroAppProtocol", "ServerAPI", "TestSupport", .product(name: "Crypto", package: "swift-crypto")],
                    swiftSettings: swiftSettings),
        .testTarget(
            name: "MicroAppHostTests",
            dependencies: ["MicroAppHost", "MicroAppProtocol", "AppModel", "CanvasCore", "CanvasFiles", "CAppProcess", "CSpawn", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutStoreTests",
            dependencies: ["LayoutStore", "CanvasCore", "SQLiteDatabase", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BFFTests",
            dependencies: [
                "AppPackages", "BFF", "BFFTesting", "CalendarTime", "CanvasCore", "ICalendar", "MicroAppProtocol", "ServerAPI", "ServerHTTP", "ServerLive", "ServerProxy",
                "ServerRoutes", "ServerSSO", "ServerStore", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "BFFAccessTests", dependencies: ["BFFAccess", "PrivateFiles"], swiftSettings: swiftSettings),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: [
                "HTTPClient", "BFF", "BFFTesting", "ServerAPI", "ServerStore", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ModelClientTests", dependencies: ["ModelClient", "BFFTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MicroAppGeneratorTests",
            dependencies: ["MicroAppGenerator", "MicroAppHost", "ModelClient", "CanvasFiles", "BFFTesting", "Widgets"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerSyncTests",
            dependencies: [
                "ServerSync", "AppModel", "ServerAPI", "HTTPClient", "BFFTesting", "CanvasCore", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CanvasFilesTests",
            dependencies: [
                "CanvasFiles", "CanvasCore", "CanvasStyle", "CanvasUI", "Widgets", "MicroAppProtocol", "AppModel", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "termcanvas", "AppInstalls", "AppPanes", "CalendarTime", "CanvasCore", "CanvasStyle", "CanvasUI", "CanvasFiles", "CommandSupport", "LayoutStore",
                "LogFiles", "TestSupport", "Widgets", "AppPackages", "ServerAPI", .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["termcanvas", "termcanvas-bff", "TestSupport", "CanvasCore", "CanvasFiles", "LayoutStore", "BFFTesting"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
    ]
)

/// The dashboard's targets outside the library products put each function in a section of its own
/// in a release build, so the link can place the ones `hot-functions.order` names first
/// (`dashboardLinking`); the server's executable, which shares a few, is only linked as before.
/// Not the targets of the library products (CanvasCore among them): a package that depends on
/// them may not carry unsafe flags.
let dashboardOnlyTargets: Set<String> = [
    "BFFAccess", "CanvasUI", "CommandSupport", "HTTPClient", "LayoutStore", "LogFiles", "MainLoop", "MicroAppGenerator",
    "MicroAppHost", "ModelClient", "NcursesTerminal", "QRCodes", "ServerSync", "Threads", "Widgets", "termcanvas",
]
for target in package.targets where dashboardOnlyTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
    ]
}
