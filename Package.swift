// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode is the tools-version default;
/// `ExistentialAny` makes every existential spelled `any`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "TermCanvas",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "termcanvas", targets: ["termcanvas"]),
        .executable(name: "termcanvas-bff", targets: ["termcanvas-bff"]),
        .library(name: "MicroAppAPI", targets: ["MicroAppAPI"]),
        .library(name: "MicroAppProtocol", targets: ["MicroAppProtocol"]),
        .library(name: "BFF", targets: ["BFF"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
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
    ],
    targets: [
        // Pure core: geometry, grid, canvas manager, focus, undo, event bus, input events.
        .target(name: "CanvasCore", swiftSettings: swiftSettings),
        // Cells, buffers, display width, themes, the widget protocol, chrome and the app loop.
        .target(
            name: "CanvasUI",
            dependencies: ["CanvasCore", "MicroAppAPI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The one C shim over ncursesw (wide-character API).
        .target(name: "CNcursesw", linkerSettings: [.linkedLibrary("ncursesw")]),
        // The one Swift target that talks to ncurses.
        .target(name: "NcursesTerminal", dependencies: ["CanvasUI", "CanvasCore", "CNcursesw"], swiftSettings: swiftSettings),
        // Directories (0700) and files (0600) only their owner may open, whatever the umask.
        .target(name: "PrivateFiles", swiftSettings: swiftSettings),
        // The SQLite files the product keeps: made private, moved aside only when damaged; days and
        // moments stored as their ISO text (GRDB).
        .target(
            name: "SQLiteFiles",
            dependencies: ["PrivateFiles", "MicroAppAPI", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // Layouts and their history in SQLite (GRDB).
        .target(
            name: "LayoutStore",
            dependencies: ["CanvasCore", "PrivateFiles", "SQLiteFiles", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // Human-editable files (YAML): layouts, themes and micro-app manifests, with errors that name
        // file, line and field; the folders micro-apps are installed in.
        .target(
            name: "CanvasFiles",
            dependencies: [
                "CanvasCore", "CanvasUI", "MicroAppAPI", "MicroAppProtocol", "MicroAppModel",
                .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // What micro-app widgets say to what runs them: the sync engine's commands and canvas
        // events, and a micro-app's connection, status and updates.
        .target(name: "MicroAppModel", dependencies: ["CanvasCore", "MicroAppAPI", "MicroAppProtocol"], swiftSettings: swiftSettings),
        // Micro-app widgets: pure state and update, rendering into a buffer.
        .target(
            name: "Widgets",
            dependencies: ["CanvasCore", "CanvasUI", "MicroAppAPI", "MicroAppModel", "MicroAppProtocol"],
            swiftSettings: swiftSettings
        ),
        // The micro-app protocol, version 1: JSON-RPC 2.0 lines, its messages, view nodes and the
        // manifest, as values; no IO.
        .target(name: "MicroAppProtocol", swiftSettings: swiftSettings),
        // The one C shim over starting, waiting for and killing micro-app processes.
        .target(name: "CAppProcess"),
        // Runs micro-apps: process apps (supervised: contained, bounded, restarted) and sampled
        // commands, behind the connection their widget talks to; grants checked here.
        .target(
            name: "MicroAppHost",
            dependencies: [
                "MicroAppProtocol", "MicroAppModel", "CAppProcess", "CommandSupport", "PrivateFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Codable request/response types, paths and event names shared by the BFF and its clients.
        .target(name: "MicroAppAPI", swiftSettings: swiftSettings),
        // Micro-app backends: a Hummingbird 2 server with auth, validation and its store: SQLite (GRDB)
        // embedded, or PostgreSQL (postgres-nio) for any number of instances.
        .target(
            name: "BFF",
            dependencies: [
                "MicroAppAPI", "SQLiteFiles", "PrivateFiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            resources: [.embedInCode("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        // How clients reach a BFF: the local server (runtime directory, instance lock, token file,
        // launcher) and the stored credentials of remote ones.
        .target(name: "BFFAccess", dependencies: ["PrivateFiles"], swiftSettings: swiftSettings),
        // The one C shim over libcurl, which it loads on first use (dlopen, so the dashboard's start
        // does not pay for libcurl's thirty libraries): wrappers of the functions the client calls,
        // typed ones for the variadic setopt and getinfo.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // The product's HTTP client (REST and server-sent events to the BFF) on libcurl; the one
        // Swift target that talks to libcurl.
        .target(
            name: "HTTPClient",
            dependencies: ["CCurl", "MicroAppAPI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // A language model behind an OpenAI-compatible chat-completions endpoint (ai.yaml), on the
        // product's HTTP client: streamed answers, retries, errors that say what to fix.
        .target(
            name: "ModelClient",
            dependencies: ["HTTPClient", .product(name: "Yams", package: "Yams"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Micro-apps from a sentence: the model writes one, the host checks and runs it before
        // anyone trusts it (`termcanvas apps new`).
        .target(
            name: "MicroAppGenerator",
            dependencies: [
                "ModelClient", "CanvasCore", "CanvasFiles", "MicroAppHost", "MicroAppModel", "MicroAppProtocol", "PrivateFiles", "Widgets",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The micro-apps' data on this machine and its sync with the BFF: cache, outbox, live stream.
        .target(
            name: "MicroAppSync",
            dependencies: [
                "CanvasCore", "MicroAppAPI", "MicroAppModel", "MicroAppProtocol", "HTTPClient", "SQLiteFiles",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What both executables share: XDG paths, logging to a file, password prompts.
        .target(
            name: "CommandSupport",
            dependencies: [
                "BFFAccess", "PrivateFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The dashboard: composition root and command line. It links no server library, so it
        // starts fast; `serve` and `user` run `termcanvas-bff`.
        .executableTarget(
            name: "termcanvas",
            dependencies: [
                "CanvasCore", "CanvasUI", "NcursesTerminal", "Widgets", "LayoutStore", "CanvasFiles", "BFFAccess", "CommandSupport",
                "HTTPClient", "MicroAppAPI", "MicroAppModel", "MicroAppSync", "PrivateFiles", "SQLiteFiles",
                "MicroAppProtocol", "MicroAppHost", "MicroAppGenerator", "ModelClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The micro-app server's executable: `termcanvas-bff serve` and `user`.
        .executableTarget(
            name: "termcanvas-bff",
            dependencies: [
                "BFF", "BFFAccess", "CommandSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Micro-benchmarks of the render path (run with `swift run -c release tc-bench`).
        .executableTarget(
            name: "tc-bench",
            dependencies: ["CanvasCore", "CanvasUI", "Widgets", "LayoutStore", "BFF", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Test helper: a real BFF on a loopback port or unix socket with a temporary data directory.
        .target(
            name: "BFFTesting",
            dependencies: [
                "BFF", "CanvasTesting", "HTTPClient", "MicroAppAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test helpers: a pseudo-terminal driver (tmux) and text snapshots.
        .target(name: "CanvasTesting", dependencies: ["CanvasCore", "CanvasUI"], swiftSettings: swiftSettings),

        .testTarget(name: "CanvasCoreTests", dependencies: ["CanvasCore", "CanvasTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "MicroAppAPITests", dependencies: ["MicroAppAPI"], swiftSettings: swiftSettings),
        .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal", "CanvasCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CanvasUITests",
            dependencies: ["CanvasUI", "CanvasCore", "CanvasTesting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WidgetsTests",
            dependencies: [
                "Widgets", "CanvasUI", "CanvasCore", "CanvasTesting", "MicroAppAPI", "MicroAppModel", "MicroAppProtocol",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MicroAppProtocolTests", dependencies: ["MicroAppProtocol"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MicroAppHostTests",
            dependencies: ["MicroAppHost", "MicroAppProtocol", "MicroAppModel", "CanvasFiles"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LayoutStoreTests",
            dependencies: ["LayoutStore", "CanvasCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BFFTests",
            dependencies: [
                "BFF", "BFFTesting", "MicroAppAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "BFFAccessTests", dependencies: ["BFFAccess"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPClientTests",
            dependencies: [
                "HTTPClient", "BFF", "BFFTesting", "MicroAppAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ModelClientTests", dependencies: ["ModelClient", "BFFTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MicroAppGeneratorTests",
            dependencies: ["MicroAppGenerator", "ModelClient", "CanvasFiles", "BFFTesting"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MicroAppSyncTests",
            dependencies: [
                "MicroAppSync", "MicroAppModel", "MicroAppAPI", "HTTPClient", "BFFTesting", "CanvasCore",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CanvasFilesTests",
            dependencies: ["CanvasFiles", "CanvasCore", "CanvasUI", "Widgets", "MicroAppProtocol", "MicroAppModel"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DashboardTests",
            dependencies: ["termcanvas", "CanvasCore", "CanvasUI", "CanvasFiles", "CommandSupport", "LayoutStore", "Widgets", .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["termcanvas", "termcanvas-bff", "CanvasTesting", "CanvasCore", "CanvasFiles", "LayoutStore", "BFFTesting"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
    ]
)
