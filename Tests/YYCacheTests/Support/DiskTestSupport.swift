import Foundation
import Logging
import Synchronization
import TestSupport
import YYDispatch

@testable import YYCache

/// A manual wall clock and free-space figure for disk-cache tests.
final class DiskTestEnvironment: Sendable {
    let milliseconds = Atomic<Int64>(1_700_000_000_000)
    let freeBytes = Atomic<Int64>(Int64.max)

    func advance(by duration: Duration) {
        milliseconds.wrappingAdd(duration.clampedMilliseconds, ordering: .relaxed)
    }

    var environment: DiskCacheCore.Environment {
        DiskCacheCore.Environment(
            now: { self.milliseconds.load(ordering: .relaxed) },
            freeSpace: { _ in self.freeBytes.load(ordering: .relaxed) }
        )
    }
}

extension DiskCache {
    /// A cache on a manual clock and free-space figure.
    convenience init(
        path: String, inlineThreshold: Int = 20 * 1024, testEnvironment: DiskTestEnvironment,
        logger: Logger = Logger(label: "test")
    ) throws(DiskCacheError) {
        try self.init(path: path, inlineThreshold: inlineThreshold, logger: logger, environment: testEnvironment.environment)
    }

    /// Names of the files in `data/`.
    var dataFileNames: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: path + "/data")) ?? [])
    }

    /// Names the manifest refers to.
    var referencedFileNames: Set<String> {
        (try? core.withManifest { manifest throws(SQLiteError) in try manifest.referencedFileNames() }) ?? []
    }
}

/// Deterministic bytes for tests.
func testBytes(_ count: Int, seed: UInt8 = 7) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
}
