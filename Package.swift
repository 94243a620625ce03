// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SpotCheck",
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "spotcheck", targets: ["spotcheck"]),
        .executable(name: "spotcheck-serve", targets: ["spotcheck-serve"]),
        .executable(name: "spotcheck-client", targets: ["spotcheck-client"]),
        .library(name: "ContractKit", targets: ["ContractKit"]),
        .library(name: "HTTPArchive", targets: ["HTTPArchive"]),
        .library(name: "CIReports", targets: ["CIReports"]),
        .library(name: "ContractModel", targets: ["ContractModel"]),
        .library(name: "MockBackend", targets: ["MockBackend"]),
        .library(name: "PetSpotClient", targets: ["PetSpotClient"]),
        .library(name: "ScenarioEngine", targets: ["ScenarioEngine"]),
        .library(name: "Exploration", targets: ["Exploration"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
        // OpenAPI documents as contract sets: Yams reads YAML with line and column marks, OpenAPIKit validates the
        // document by its own version's rules (OpenAPIKit 6.4 wants Yams 6).
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0"),
        // Allocation counts for bench/allocations.sh: the counter package-benchmark's malloc metrics use (package-benchmark
        // itself needs ordo-one/swift-runtime-interposer on Linux with Swift 6.3, which the package copy lacks).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "ContractKit",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
            ]
        ),
        // HAR 1.2 archives read and written; ContractKit lends its JSON value and parser.
        .target(name: "HTTPArchive", dependencies: ["ContractKit"]),
        // The CI report model and its formats (CTRF, SARIF, job summary, annotations, JUnit's XML text); ContractKit
        // lends JSON, and the line index and display paths that place a result on its file and line.
        .target(name: "CIReports", dependencies: ["ContractKit"]),
        // The compiled contract set executed as values (request and state in, answer and change out): no NIO, no I/O
        // but the data directory behind its file-system seam. Every face (serve, verify's oracle, the proxy's check,
        // exploration) calls it in-process.
        .target(name: "ContractModel", dependencies: ["ContractKit"]),
        .target(
            name: "MockBackend",
            dependencies: [
                "ContractKit", "ContractModel", "HTTPArchive", "CIReports",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/dashboard")]
        ),
        // URLSession's data(for:) with a cancellation FoundationNetworking survives: the reference client's and the engine's.
        .target(name: "SafeCancellation"),
        .target(name: "PetSpotClient", dependencies: ["SafeCancellation"]),
        .target(name: "ScenarioEngine", dependencies: ["ContractKit", "ContractModel", "HTTPArchive", "CIReports", "MockBackend", "SafeCancellation"]),
        // The reference client behind the engine's client protocol: PetSpot's own, so it is kept out of the engine.
        .target(name: "ReferenceClientDriver", dependencies: ["ContractKit", "ContractModel", "PetSpotClient", "ScenarioEngine"]),
        .target(
            name: "Exploration",
            dependencies: [
                "ContractKit", "ContractModel", "CIReports", "MockBackend", "ScenarioEngine",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MockCommands",
            dependencies: [
                "ContractKit", "ContractModel", "MockBackend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "spotcheck-serve",
            dependencies: ["MockCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "spotcheck",
            dependencies: [
                "ContractKit", "ContractModel", "HTTPArchive", "CIReports", "Exploration", "MockBackend", "MockCommands", "PetSpotClient", "ReferenceClientDriver",
                "ScenarioEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "spotcheck-client", dependencies: ["PetSpotClient"]),
        // One create and one read through the executor and through the whole server, counted (bench/allocations.sh, in CI).
        .executableTarget(
            name: "spotcheck-allocations",
            dependencies: [
                "ContractKit", "ContractModel", "MockBackend",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/Allocations"
        ),
        .testTarget(name: "ContractKitTests", dependencies: ["ContractKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HTTPArchiveTests", dependencies: ["HTTPArchive", "ContractKit"]),
        // The published report schemas are read by path, for scripts/check-report-schemas.sh reads the same files.
        .testTarget(name: "CIReportsTests", dependencies: ["CIReports", "ContractKit"], exclude: ["Fixtures"]),
        .testTarget(
            name: "MockBackendTests",
            dependencies: [
                "MockBackend", "ContractModel", "ContractKit", "HTTPArchive",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PetSpotClientTests", dependencies: ["PetSpotClient", "MockBackend", "ContractModel"]),
        // Client test doubles shared by the engine's and the explorer's tests (built empty in release: they use @testable).
        .target(name: "ClientDoubles", dependencies: ["ScenarioEngine", "PetSpotClient", "ReferenceClientDriver", "ContractModel"], path: "Tests/ClientDoubles"),
        .testTarget(name: "ScenarioEngineTests", dependencies: ["ScenarioEngine", "ContractModel", "MockBackend", "PetSpotClient", "ReferenceClientDriver", "ContractKit", "HTTPArchive", "ClientDoubles"]),
        .testTarget(
            name: "ExplorationTests",
            dependencies: [
                "Exploration", "ScenarioEngine", "ContractModel", "MockBackend", "PetSpotClient", "ReferenceClientDriver", "ContractKit", "CIReports",
                "ClientDoubles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "SpotCheckCLITests", dependencies: ["spotcheck", "spotcheck-serve", "MockCommands", "ContractModel", "CIReports", "ClientDoubles"]),
        .testTarget(name: "ContractModelTests", dependencies: ["ContractModel", "ContractKit"]),
    ],
    swiftLanguageModes: [.v6]
)
