// swift-tools-version:6.1
// Benchmarks live in their own package so that the main package's CI build stays small.
// Run: Benchmarks/run-cache-benchmarks (see README.md here).
import PackageDescription

let package = Package(
    name: "YYKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "YYKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The raw-SQLite baseline gets its own module name: `CSQLite` belongs to the main package.
        .systemLibrary(
            name: "CSQLiteRaw", path: "Sources/CSQLiteRaw", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // simdjson, the parse-speed peer: a C++ shim over Debian's libsimdjson-dev.
        .target(name: "CSimdjson", path: "Sources/CSimdjson", linkerSettings: [.linkedLibrary("simdjson")]),
        // The timing loop the benchmarks share.
        .target(name: "BenchmarkSupport"),
        // `--nio-global-executor`, for the harnesses whose contenders run on NIO.
        .target(
            name: "NIOExecutorOption",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]
        ),
        .executableTarget(
            name: "JSONBenchmarks",
            dependencies: [.product(name: "YYModel", package: "YYKit"), "CSimdjson", "BenchmarkSupport"]
        ),
        // The C image libraries called directly: the floor YYImage's decoders are measured against.
        .systemLibrary(name: "CPNGRaw", path: "Sources/CPNGRaw", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEGRaw", path: "Sources/CTurboJPEGRaw", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebPRaw", path: "Sources/CWebPRaw", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIFRaw", path: "Sources/CGIFRaw", providers: [.apt(["libgif-dev"])]),
        // glibc's mallinfo2, for peak-heap sampling.
        .systemLibrary(name: "CMallocInfo", path: "Sources/CMallocInfo"),
        .executableTarget(
            name: "ImageBenchmarks",
            dependencies: [
                .product(name: "YYImage", package: "YYKit"), "CPNGRaw", "CTurboJPEGRaw", "CWebPRaw", "CGIFRaw", "CMallocInfo", "BenchmarkSupport",
            ]
        ),
        .executableTarget(
            name: "ProcessingBenchmarks",
            dependencies: [.product(name: "YYImage", package: "YYKit"), "BenchmarkSupport", "CTurboJPEGRaw"]
        ),
        .executableTarget(
            name: "FormatBenchmarks",
            dependencies: [.product(name: "YYImage", package: "YYKit"), "BenchmarkSupport"]
        ),
        .executableTarget(
            name: "PlayerBenchmarks",
            dependencies: [.product(name: "YYImage", package: "YYKit"), "CMallocInfo", "BenchmarkSupport"]
        ),
        .executableTarget(
            name: "WebImageBenchmarks",
            dependencies: [
                .product(name: "YYWebImage", package: "YYKit"), .product(name: "YYImage", package: "YYKit"),
                .product(name: "YYCache", package: "YYKit"), "BenchmarkSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), "NIOExecutorOption",
            ]
        ),
        .executableTarget(
            name: "DispatchBenchmarks",
            dependencies: [.product(name: "YYDispatch", package: "YYKit"), "BenchmarkSupport"]
        ),
        .executableTarget(
            name: "RedisBenchmarks",
            dependencies: [
                .product(name: "YYCacheRedis", package: "YYKit"), .product(name: "YYCache", package: "YYKit"),
                .product(name: "NIOCore", package: "swift-nio"), "BenchmarkSupport", "NIOExecutorOption",
            ]
        ),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [.product(name: "YYCache", package: "YYKit"), "CSQLiteRaw"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
