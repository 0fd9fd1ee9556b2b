// swift-tools-version:6.1
// Benchmarks live in their own package so that the main package's CI build stays small.
// Run: Benchmarks/run-cache-benchmarks (see README.md here).
import PackageDescription

let package = Package(
    name: "YYKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "YYKit", path: ".."),
    ],
    targets: [
        // The raw-SQLite baseline gets its own module name: `CSQLite` belongs to the main package.
        .systemLibrary(name: "CSQLiteRaw", path: "Sources/CSQLiteRaw", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // simdjson, the parse-speed peer: a C++ shim over Debian's libsimdjson-dev.
        .target(name: "CSimdjson", path: "Sources/CSimdjson", linkerSettings: [.linkedLibrary("simdjson")]),
        .executableTarget(
            name: "JSONBenchmarks",
            dependencies: [.product(name: "YYModel", package: "YYKit"), "CSimdjson"]
        ),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [.product(name: "YYCache", package: "YYKit"), "CSQLiteRaw"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
