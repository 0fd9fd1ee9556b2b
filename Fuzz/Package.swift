// swift-tools-version:6.1
// Coverage-guided fuzzers (libFuzzer) for the parsers that read untrusted bytes. Their own package,
// like Benchmarks/, so that the main package's CI build does not compile them.
// Run: scripts/fuzz image|process|json|resp|url [SECONDS] (see README.md here).
import PackageDescription

let package = Package(
    name: "YYKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "YYKit", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "ImageFuzzer", dependencies: ["FuzzDriver", .product(name: "YYImage", package: "YYKit")]),
        .executableTarget(name: "ProcessFuzzer", dependencies: ["FuzzDriver", .product(name: "YYImage", package: "YYKit")]),
        .executableTarget(name: "JSONFuzzer", dependencies: ["FuzzDriver", .product(name: "YYModelCore", package: "YYKit")]),
        .executableTarget(
            name: "URLFuzzer",
            dependencies: ["FuzzDriver", .product(name: "YYImageService", package: "YYKit"), .product(name: "YYImage", package: "YYKit")]),
        .executableTarget(
            name: "RESPFuzzer",
            dependencies: ["FuzzDriver", .product(name: "YYCacheRedis", package: "YYKit"), .product(name: "NIOCore", package: "swift-nio")]
        ),
    ]
)
