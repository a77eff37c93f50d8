// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SADE",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SADEACL", targets: ["SADEACL"]),
        .library(name: "SADECore", targets: ["SADECore"]),
        .library(name: "SADEExamples", targets: ["SADEExamples"]),
        .executable(name: "sade", targets: ["sade"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        // Layer 1: FIPA-ACL message value types. No I/O.
        .target(name: "SADEACL"),
        // Layer 2: agents, BDI reasoning, behaviours, the platform (AMS, DF, delivery).
        .target(
            name: "SADECore",
            dependencies: ["SADEACL", .product(name: "Logging", package: "swift-log")]
        ),
        // Applications: the classic examples.
        .target(name: "SADEExamples", dependencies: ["SADECore"]),
        // The `sade` command.
        .executableTarget(
            name: "sade",
            dependencies: ["SADEExamples", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "SADEACLTests", dependencies: ["SADEACL"]),
        .testTarget(
            name: "SADECoreTests",
            dependencies: [
                "SADEACL", "SADECore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SADEExamplesTests", dependencies: ["SADEExamples", "sade"]),
    ],
    swiftLanguageModes: [.v6]
)
