// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SADE",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SADEProcess", targets: ["SADEProcess"]),
        .library(name: "SADEACL", targets: ["SADEACL"]),
        .library(name: "SADECore", targets: ["SADECore"]),
        .library(name: "SADENet", targets: ["SADENet"]),
        .library(name: "SADEHealth", targets: ["SADEHealth"]),
        .library(name: "SADEHealthSQLite", targets: ["SADEHealthSQLite"]),
        .library(name: "SADEPostgres", targets: ["SADEPostgres"]),
        .library(name: "SADEHealthPostgres", targets: ["SADEHealthPostgres"]),
        .library(name: "SADENotification", targets: ["SADENotification"]),
        .library(name: "SADEExamples", targets: ["SADEExamples"]),
        .library(name: "SADEIssueTrack", targets: ["SADEIssueTrack"]),
        .library(name: "SADEMonitoring", targets: ["SADEMonitoring"]),
        .library(name: "SADEHome", targets: ["SADEHome"]),
        .library(name: "SADEHomeSQLite", targets: ["SADEHomeSQLite"]),
        .library(name: "SADEHomePostgres", targets: ["SADEHomePostgres"]),
        .library(name: "SADEServer", targets: ["SADEServer"]),
        .executable(name: "sade", targets: ["sade"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // Child processes that start clean (empty signal mask, default dispositions, a group
        // of their own) and are stopped with their group, also when this process dies.
        .target(name: "SADEProcess", dependencies: ["CSADEProcess"]),
        .target(name: "CSADEProcess"),
        // Layer 1: FIPA-ACL message value types. No I/O.
        .target(name: "SADEACL"),
        // Layer 2: agents, BDI reasoning, behaviours, the platform (AMS, DF, delivery).
        .target(
            name: "SADECore",
            dependencies: ["SADEACL", .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")]
        ),
        // Layer 3: TCP transport between platforms (SwiftNIO), framed ACL strings.
        .target(
            name: "SADENet",
            dependencies: [
                "SADEACL", "SADECore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Health module: HealthKit-shaped store protocol, clinical model, NEWS2 and
        // anomaly detection, FHIR R4. No storage engine.
        .target(name: "SADEHealth", dependencies: ["SADEACL", "SADECore", .product(name: "Crypto", package: "swift-crypto")]),
        // The health store and clinical registry on SQLite (GRDB).
        .target(
            name: "SADEHealthSQLite",
            dependencies: [
                "SADEHealth", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // PostgreSQL for several nodes sharing one database: locations, a pool, transactions,
        // migrations nodes may run at once, leases, LISTEN/NOTIFY (PostgresNIO).
        .target(
            name: "SADEPostgres",
            dependencies: [
                "SADECore",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The health store and clinical registry on PostgreSQL.
        .target(
            name: "SADEHealthPostgres",
            dependencies: [
                "SADEHealth", "SADEPostgres", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Notifications: in-app hub, e-mail over SMTP, webhooks, a durable outbox on
        // SQLite or PostgreSQL, acknowledgement and escalation.
        .target(
            name: "SADENotification",
            dependencies: [
                "SADEACL", "SADECore", "SADEPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Application: remote patient monitoring — accounts, access rules, the collector /
        // anomalies / alert agents, live events, simulated devices, the wearable facade's data.
        .target(
            name: "SADEMonitoring",
            dependencies: [
                "SADEACL", "SADECore", "SADEHealth", "SADEHealthSQLite", "SADENotification", "SADEHome", "SADEHomeSQLite", "SADEHomePostgres",
                "SADEPostgres", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The monitoring server's HTTP face (Hummingbird 2): /api/v1, auth, OpenAPI, live
        // events, metrics, the wearable thesis's /Api routes.
        .target(
            name: "SADEServer",
            dependencies: [
                "SADEACL", "SADECore", "SADEHealth", "SADEHealthSQLite", "SADENotification", "SADEMonitoring", "SADEIssueTrack",
                "SADEHome",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("OpenAPI/openapi.json"), .copy("Dashboard/Assets")]
        ),
        // Application: the smart home for assisted living (AAL thesis, H.O.M.E.R.) — flats,
        // devices of Table 4.1, state events, home messages, the BDI HomeAgent. No storage engine.
        .target(
            name: "SADEHome",
            dependencies: [
                "SADEACL", "SADECore", "SADEHealth", "SADENotification",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The home store on SQLite (GRDB): flats, devices, events, hourly statistics, messages.
        .target(
            name: "SADEHomeSQLite",
            dependencies: ["SADEHome", "SADEHealth", "SADENotification", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The home store on PostgreSQL, for several nodes sharing one database.
        .target(
            name: "SADEHomePostgres",
            dependencies: ["SADEHome", "SADEHealth", "SADEPostgres", .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        // Application: iMobile's issue track — a company's issues, services and employees on
        // SQLite (GRDB) or PostgreSQL; one IssueAgent per employee finds who takes an urgent issue by
        // Contract Net and falls back to e-mail.
        .target(
            name: "SADEIssueTrack",
            dependencies: [
                "SADEACL", "SADECore", "SADENotification", "SADEPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Applications: the classic examples (fire alarm, issue track) told as stories.
        .target(name: "SADEExamples", dependencies: ["SADECore", "SADEIssueTrack", "SADENotification"]),
        // The `sade` command.
        .executableTarget(
            name: "sade",
            dependencies: [
                "SADEACL", "SADECore", "SADENet", "SADEHealth", "SADEHealthSQLite", "SADENotification", "SADEExamples",
                "SADEIssueTrack", "SADEMonitoring", "SADEServer", "SADEHome", "SADEHomeSQLite", "SADEPostgres", "SADEHealthPostgres",
                "SADEProcess",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // Times each test case for scripts/test's list of the slowest (a trait every suite carries).
        .target(name: "SADETestTiming", path: "Tests/SADETestTiming"),
        // Helpers shared by the test targets: the sade executable as a process, seeded randomness,
        // the SMTP and webhook servers (Python) tests talk to.
        .target(
            name: "SADETestSupport", dependencies: ["SADEProcess", "SADEPostgres", "SADEHealth", "SADENet", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tests/SADETestSupport", resources: [.copy("Servers")]
        ),
        .testTarget(name: "SADEProcessTests", dependencies: ["SADETestTiming", "SADEProcess"]),
        .testTarget(name: "SADEACLTests", dependencies: ["SADETestTiming", "SADEACL", "SADETestSupport"]),
        .testTarget(
            name: "SADECoreTests",
            dependencies: ["SADETestTiming", 
                "SADEACL", "SADECore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SADENetTests",
            dependencies: ["SADETestTiming", 
                "SADEACL", "SADECore", "SADENet", "sade", "SADETestSupport", .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SADEHealthTests",
            dependencies: ["SADETestTiming", "SADEHealth", "SADEHealthSQLite", "SADEHealthPostgres", "SADECore", "sade", "SADETestSupport"]
        ),
        .testTarget(
            name: "SADEHealthSQLiteTests",
            dependencies: ["SADETestTiming", "SADEHealth", "SADEHealthSQLite", "SADETestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SADEPostgresTests",
            dependencies: ["SADETestTiming", "SADEPostgres", "SADEHealth", "SADEHealthPostgres", "SADETestSupport"]
        ),
        .testTarget(
            name: "SADENotificationTests",
            dependencies: ["SADETestTiming", 
                "SADENotification", "SADECore", "sade", "SADETestSupport", "SADEPostgres", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SADEMonitoringTests",
            dependencies: ["SADETestTiming", 
                "SADEMonitoring", "SADEHealth", "SADEHealthSQLite", "SADENotification", "SADECore", "SADETestSupport", "SADEPostgres",
                "SADEHealthPostgres", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SADEServerTests",
            dependencies: ["SADETestTiming", 
                "SADEServer", "SADEMonitoring", "SADEHealth", "SADENotification", "SADEIssueTrack", "SADECore", "sade", "SADETestSupport",
                "SADEPostgres", "SADEHealthPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "SADEHomeTests",
            dependencies: ["SADETestTiming", 
                "SADEHome", "SADEHomeSQLite", "SADEHomePostgres", "SADEPostgres", "SADEHealth", "SADENotification", "SADECore", "SADETestSupport",
            ]
        ),
        .testTarget(name: "SADEExamplesTests", dependencies: ["SADETestTiming", "SADEExamples", "sade", "SADETestSupport"]),
        .testTarget(
            name: "SADEIssueTrackTests",
            dependencies: ["SADETestTiming", 
                "SADEIssueTrack", "SADENotification", "SADECore", "SADEACL", "SADENet", "SADEPostgres", "sade", "SADETestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
