// swift-tools-version:6.1
// YYKit for Swift: the core of ibireme's YYKit rebuilt as Swift 6 for Linux and Apple platforms.
import CompilerPluginSupport
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "YYKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "YYCache", targets: ["YYCache"]),
        .library(name: "YYCacheRedis", targets: ["YYCacheRedis"]),
        .library(name: "YYDispatch", targets: ["YYDispatch"]),
        .library(name: "YYModel", targets: ["YYModel"]),
        .library(name: "YYModelCore", targets: ["YYModelCore"]),
        .library(name: "YYImage", targets: ["YYImage"]),
        .library(name: "YYWebImage", targets: ["YYWebImage"]),
        .library(name: "YYImageService", targets: ["YYImageService"]),
        .executable(name: "yy", targets: ["yy"]),
    ],
    traits: [
        .trait(
            name: "RedisTLS",
            description: "rediss:// in YYCacheRedis, on swift-nio-ssl (which compiles BoringSSL: minutes of build time). "
                + "On by default; a package that never needs TLS to Redis depends on YYKit with `traits: []`."
        ),
        // Each codec of YYImage on a C library can be left out with its library: a package that
        // lists its own traits leaves out every one it does not name.
        .trait(name: "OpenJPEG", description: "JPEG 2000 in YYImage (and ICNS entries that hold JPEG 2000), on libopenjp2."),
        .trait(name: "LibTIFF", description: "TIFF in YYImage, on libtiff."),
        .trait(name: "LibAVIF", description: "AVIF in YYImage, on libavif (dav1d, aom, rav1e, SVT-AV1 as Debian builds it)."),
        .trait(name: "LibHEIF", description: "HEIC decoding in YYImage, on libheif (LGPL, linked dynamically)."),
        .trait(name: "LibJXL", description: "JPEG XL in YYImage, on libjxl."),
        .trait(name: "LibRSVG", description: "SVG drawing in YYImage, on librsvg and cairo (LGPL, linked dynamically)."),
        .default(enabledTraits: ["RedisTLS", "OpenJPEG", "LibTIFF", "LibAVIF", "LibHEIF", "LibJXL", "LibRSVG"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // StallMonitor's optional metrics (the API package alone: no dependencies, seconds to build).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        // YYWebImage's network stage (and the tests' loopback server).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // YYCacheRedis's TLS (trait RedisTLS); AsyncHTTPClient builds it for HTTPS anyway.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // YYWebImage's deadline heap (swift-nio builds swift-collections already).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Documentation only: `swift package generate-documentation` (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // YYImageService (`yy serve`) only: the HTTP server, its start and stop, its metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Tests only: a clock the player tests advance by hand.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        // C libraries come from Debian packages (see scripts/setup), found through pkg-config.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .systemLibrary(
            name: "CWebP",
            path: "Sources/CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
        ),
        .systemLibrary(
            name: "CDeflate",
            path: "Sources/CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .systemLibrary(
            name: "CLCMS2",
            path: "Sources/CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        .systemLibrary(
            name: "COpenJPEG",
            path: "Sources/COpenJPEG",
            pkgConfig: "libopenjp2",
            providers: [.apt(["libopenjp2-7-dev"]), .brew(["openjpeg"])]
        ),
        .systemLibrary(
            name: "CTIFF",
            path: "Sources/CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]
        ),
        .systemLibrary(
            name: "CAVIF",
            path: "Sources/CAVIF",
            // No pkgConfig: its Cflags carry -D flags that SwiftPM refuses (with a warning on
            // every build), and the headers and library sit on the default paths.
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]
        ),
        .systemLibrary(
            name: "CHEIF",
            path: "Sources/CHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]
        ),
        .systemLibrary(
            name: "CJXL",
            path: "Sources/CJXL",
            // No pkgConfig: its Cflags carry -D flags that SwiftPM refuses (with a warning on
            // every build), and the headers and library sit on the default paths.
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]
        ),
        .systemLibrary(
            name: "CRSVG",
            path: "Sources/CRSVG",
            // No pkgConfig: its Cflags carry -pthread, which SwiftPM refuses (with a warning on
            // every build); the shim declares the few functions it calls (see shim.h).
            providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]
        ),
        // HMAC-SHA256 and SHA-256 for YYImageService's URL signatures and ETags, from the
        // system's OpenSSL (swift-crypto would compile a BoringSSL of its own on every clean build).
        .systemLibrary(
            name: "CLibCrypto",
            path: "Sources/CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The one place that needs C: libpng reports errors with longjmp, which Swift cannot catch.
        .target(
            name: "CYYImageShims",
            dependencies: ["CPNG"],
            path: "Sources/CYYImageShims"
        ),
        // Fixed-point resampling and pixel loops, with AVX2 versions chosen at run time on x86-64.
        .target(
            name: "CYYPixelKernels",
            path: "Sources/CYYPixelKernels"
        ),
        .target(
            name: "YYDispatch",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "YYCache",
            dependencies: [
                "YYDispatch",
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // YYCache's shared tier on Redis: a RESP client on swift-nio (its own product, so that
        // YYCache users who do not want Redis never build swift-nio).
        .target(
            name: "YYCacheRedis",
            dependencies: [
                "YYCache", "YYDispatch",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["RedisTLS"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["RedisTLS"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The compiler plugin behind @Model (runs at build time; swift-syntax is not linked into apps).
        .macro(
            name: "YYModelMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        // JSON parsing and writing, JSONValue and the Codable bridge (ModelDecoder / ModelEncoder):
        // everything that runs, with no compiler plugin, so its users never build swift-syntax.
        .target(
            name: "YYModelCore",
            dependencies: ["CYYJSONScan"],
            swiftSettings: strictSettings
        ),
        // JSON string scanning 32 bytes a step (AVX2 on x86-64, chosen at run time).
        .target(
            name: "CYYJSONScan",
            path: "Sources/CYYJSONScan"
        ),
        // `@Model`: the macro declarations, re-exporting YYModelCore.
        .target(
            name: "YYModel",
            dependencies: ["YYModelCore", "YYModelMacros"],
            swiftSettings: strictSettings
        ),
        // `yy json model`'s generator of @Model source from a JSON sample: a tool's code, kept out
        // of the runtime.
        .target(
            name: "YYModelCodegen",
            dependencies: ["YYModelCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "YYImage",
            dependencies: [
                "YYDispatch", "CPNG", "CTurboJPEG", "CWebP", "CYYImageShims", "CYYPixelKernels", "CDeflate", "CLCMS2",
                .target(name: "COpenJPEG", condition: .when(traits: ["OpenJPEG"])),
                .target(name: "CTIFF", condition: .when(traits: ["LibTIFF"])),
                .target(name: "CAVIF", condition: .when(traits: ["LibAVIF"])),
                .target(name: "CHEIF", condition: .when(traits: ["LibHEIF"])),
                .target(name: "CJXL", condition: .when(traits: ["LibJXL"])),
                .target(name: "CRSVG", condition: .when(traits: ["LibRSVG"])),
            ],
            swiftSettings: strictSettings
        ),
        // The image pipeline: memory cache → disk cache → network → decode, coalesced at every stage.
        .target(
            name: "YYWebImage",
            dependencies: [
                "YYCache", "YYImage", "YYDispatch",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),  // NIOConnectionError, to word failed connections; built for AsyncHTTPClient anyway
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `yy serve`: an imgproxy-compatible image service on the pipeline, the processing chain and
        // the result cache (memory, disk, Redis). The only module that builds Hummingbird.
        .target(
            name: "YYImageService",
            dependencies: [
                "YYWebImage", "YYImage", "YYCache", "YYDispatch", "CLibCrypto",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Escape sequences that draw images in terminals (half blocks, kitty, iTerm2, sixel), for `yy image play`.
        .target(
            name: "YYTerminal",
            dependencies: ["YYImage"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "yy",
            dependencies: [
                "YYCache",
                "YYCacheRedis",
                "YYModelCore",
                "YYModelCodegen",
                "YYImage",
                "YYDispatch",
                "YYTerminal",
                "YYWebImage",
                "YYImageService",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // A child process for the crash-safety tests: writes to a DiskCache until it is killed.
        .executableTarget(
            name: "cache-crash-writer",
            dependencies: ["YYCache", "TestSupport"],
            path: "Tests/Tools/cache-crash-writer",
            swiftSettings: strictSettings
        ),
        // Serves a folder on loopback for scripts/demo's `yy fetch`.
        .executableTarget(
            name: "loopback-image-server",
            dependencies: ["LoopbackHTTPServer"],
            path: "Tests/Tools/loopback-image-server",
            swiftSettings: strictSettings
        ),
        // Writes the images scripts/demo uses when YYKit's samples are absent, with our own encoders.
        .executableTarget(
            name: "demo-image-writer",
            dependencies: ["YYImage"],
            path: "Tests/Tools/demo-image-writer",
            swiftSettings: strictSettings
        ),
        // A process of the cross-process fill tests: many callers of Cache.value(forKey:orFill:) on a Redis tier.
        .executableTarget(
            name: "redis-fill-worker",
            dependencies: ["YYCache", "YYCacheRedis"],
            path: "Tests/Tools/redis-fill-worker",
            swiftSettings: strictSettings
        ),
        // YYDispatch's tools driven from many threads, for CI's ThreadSanitizer run (scripts/race-check).
        .executableTarget(
            name: "dispatch-race-check",
            dependencies: ["YYDispatch"],
            path: "Tests/Tools/dispatch-race-check",
            swiftSettings: strictSettings
        ),
        // Helpers shared by the test targets: temporary folders, built products, child processes.
        .target(
            name: "TestSupport",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            exclude: [
                "Reference/pillow_frames.py", "Reference/pillow_colour.py", "Reference/resize_reference.py", "Reference/format_reference.py",
                "Reference/shrink_reference.py", "Reference/pillow_composite.py", "Reference/pillow_enhance.py",
                "Reference/placeholder_hashes.py",
            ],
            swiftSettings: strictSettings
        ),
        // Swift Testing traits shared by the test targets (kept apart from TestSupport, which the
        // helper executables link and which must not pull in the testing library).
        .target(
            name: "TestTraits",
            dependencies: ["TestSupport"],
            path: "Tests/TestTraits",
            swiftSettings: strictSettings
        ),
        // Shared cache tiers in memory for the tests of `Cache` and of the image pipeline: one that
        // can be told to fail, one whose replies wait until the test lets them through.
        .target(
            name: "SharedTierDoubles",
            dependencies: ["YYCache", "YYDispatch"],
            path: "Tests/SharedTierDoubles",
            swiftSettings: strictSettings
        ),
        // A loopback HTTP server for the tests and the demo that writes exactly the bytes it is told
        // (malformed responses included) and counts the requests it gets.
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/LoopbackHTTPServer",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYDispatchTests",
            dependencies: ["YYDispatch", "TestSupport", "TestTraits", .product(name: "MetricsTestKit", package: "swift-metrics")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYCacheTests",
            dependencies: [
                "YYCache", "YYDispatch", "CSQLite", "TestSupport", "TestTraits", "SharedTierDoubles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYCacheRedisTests",
            dependencies: [
                "YYCacheRedis", "YYCache", "TestSupport", "TestTraits",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["RedisTLS"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYModelTests",
            dependencies: ["YYModel", "YYModelCore", "CYYJSONScan", "TestSupport", "TestTraits"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYModelMacrosTests",
            dependencies: [
                "YYModelMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYImageTests",
            dependencies: [
                "YYImage", "YYDispatch", "CPNG", "CLCMS2", "CTurboJPEG", "TestSupport", "TestTraits", "YYCache", "YYModelCore",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYTerminalTests",
            dependencies: ["YYTerminal", "YYImage", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYWebImageTests",
            dependencies: [
                "YYWebImage", "YYCache", "YYCacheRedis", "YYImage", "LoopbackHTTPServer", "TestSupport", "TestTraits",
                "SharedTierDoubles",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "yyTests",
            dependencies: [
                "yy", "YYImage", "YYCache", "TestSupport", "TestTraits", "LoopbackHTTPServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYImageServiceTests",
            dependencies: [
                "YYImageService", "YYWebImage", "YYImage", "YYCache", "YYCacheRedis", "YYDispatch", "LoopbackHTTPServer", "TestSupport",
                "TestTraits",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "YYModelCodegenTests",
            dependencies: ["YYModelCodegen", "YYModel"],
            swiftSettings: strictSettings
        ),
        // Every Swift snippet of the README and the DocC catalogs, compiled here; its one test checks
        // that the documents show exactly this code.
        .testTarget(
            name: "SnippetTests",
            dependencies: [
                "YYCache", "YYCacheRedis", "YYDispatch", "YYModel", "YYImage", "YYWebImage", "YYImageService",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
