import CSQLite
import Foundation
import TestSupport
import Testing

@testable import YYCache

@Suite struct DiskCacheBadInputTests {
    static let hostileKeys: [String] = [
        "", "/", "//", ".", "..", "../../x", "../../../../etc/passwd", "/etc/passwd", "a/b/c",
        "nul\u{0}inside", "\u{0}", "日本語のキー", "🧪👩‍👩‍👧", "\u{202E}txt.exe", "tab\tnewline\n",
        "'; DROP TABLE manifest; --", "%s%n", String(repeating: "k", count: 1 << 20),
    ]

    @Test func hostileKeysAreJustDataAndNothingIsWrittenOutsideTheFolder() throws {
        let sandbox = TemporaryDirectory("keys")
        let path = sandbox.appending("cache")
        let cache = try DiskCache(path: path)
        for (i, key) in Self.hostileKeys.enumerated() {
            try cache.setData(testBytes(i.isMultiple(of: 2) ? 30_000 : 50, seed: UInt8(i)), forKey: key)
        }
        for (i, key) in Self.hostileKeys.enumerated() {
            #expect(
                try cache.data(forKey: key) == testBytes(i.isMultiple(of: 2) ? 30_000 : 50, seed: UInt8(i)),
                "key #\(i)")
        }
        #expect(try cache.totalCount == Self.hostileKeys.count)
        // The sandbox holds only the cache folder; the cache folder only its own layout.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path) == ["cache"])
        let layout = Set(try FileManager.default.contentsOfDirectory(atPath: path))
        #expect(layout.isSubset(of: ["data", "trash", "lock", "manifest.sqlite", "manifest.sqlite-wal", "manifest.sqlite-shm"]))
        for name in cache.dataFileNames {
            #expect(name.allSatisfy { $0.isHexDigit }, "\(name)")
        }
        for key in Self.hostileKeys { try cache.removeValue(forKey: key) }
        #expect(try cache.totalCount == 0)
        #expect(cache.dataFileNames.isEmpty)
    }

    @Test func canonicallyEquivalentKeysAreOneKeyOnDiskAsInMemory() throws {
        let folder = TemporaryDirectory("nfc")
        let cache = try Cache<Data>(path: folder.path)
        try cache.setValue(Data("composed".utf8), forKey: "caf\u{E9}")
        cache.memoryCache.removeAll()
        #expect(try cache.value(forKey: "cafe\u{301}") == Data("composed".utf8))
        #expect(try cache.diskCache.totalCount == 1)
    }

    @Test func valueLargerThanTheCostLimitIsStoredThenTrimmed() throws {
        let folder = TemporaryDirectory("bigvalue")
        let cache = try DiskCache(path: folder.path)
        cache.costLimit = 1_000
        try cache.setData(testBytes(50_000), forKey: "huge")
        try cache.setData(testBytes(100), forKey: "small")
        cache.trimToLimits()
        #expect(try cache.totalCost <= 1_000)
        #expect(try cache.data(forKey: "huge") == nil)
        #expect(cache.dataFileNames.isEmpty)
    }

    @Test func invalidPathsAreTypedErrors() throws {
        let folder = TemporaryDirectory("paths")
        #expect(throws: DiskCacheError.invalidPath("", reason: "empty")) { try DiskCache(path: "") }
        let nul = error { () throws(DiskCacheError) in try DiskCache(path: folder.path + "/a\u{0}b") }
        #expect(nul.map { if case .invalidPath = $0 { true } else { false } } == true)
        let long = error { () throws(DiskCacheError) in try DiskCache(path: String(repeating: "/x", count: 3000)) }
        #expect(long.map { if case .invalidPath = $0 { true } else { false } } == true)
        let file = folder.appending("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let underFile = error { () throws(DiskCacheError) in try DiskCache(path: file + "/cache") }
        #expect(underFile.map { if case .fileSystem(_, ENOTDIR, _) = $0 { true } else { false } } == true)
        #expect(throws: DiskCacheError.self) { try Cache<Data>(name: "../escape", rootDirectory: folder.path) }
        #expect(throws: DiskCacheError.self) { try Cache<Data>(name: "", rootDirectory: folder.path) }
    }

    @Test func folderWithoutWritePermissionIsATypedError() throws {
        let folder = TemporaryDirectory("readonly")
        let existing = folder.appending("existing")
        do {
            let cache = try DiskCache(path: existing)
            try cache.setData(testBytes(10), forKey: "k")
        }
        chmod(existing, 0o555)
        chmod(existing + "/data", 0o555)
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755); chmod(existing, 0o755); chmod(existing + "/data", 0o755) }
        let fresh = folder.appending("fresh")
        if geteuid() != 0 {
            #expect(throws: DiskCacheError.permissionDenied(path: fresh)) { try DiskCache(path: fresh) }
            #expect(throws: DiskCacheError.self) {
                let cache = try DiskCache(path: existing)
                try cache.setData(testBytes(30_000), forKey: "new")
            }
            return
        }
        // Root ignores permissions: ask an unprivileged child to try instead.
        guard let helper = BuildProducts.executable("cache-crash-writer"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        else {
            Issue.record("running as root needs /usr/bin/setpriv and the cache-crash-writer product")
            return
        }
        let drop = ["--reuid=65534", "--regid=65534", "--clear-groups", helper, "open"]
        let freshRun = try ChildProcess.run("/usr/bin/setpriv", drop + [fresh])
        #expect(freshRun.status == 3)
        #expect(freshRun.text.contains("permission denied"), "\(freshRun.text)")
        let existingRun = try ChildProcess.run("/usr/bin/setpriv", drop + [existing])
        #expect(existingRun.status == 3)
        #expect(existingRun.text.contains("permission denied"), "\(existingRun.text)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test(arguments: ["random", "empty-header", "schema"])
    func damagedManifestIsRebuiltAndLogged(damage: String) throws {
        let folder = TemporaryDirectory("corrupt")
        do {
            let cache = try DiskCache(path: folder.path)
            for i in 0..<50 { try cache.setData(testBytes(i.isMultiple(of: 5) ? 30_000 : 100), forKey: "\(i)") }
        }
        let manifest = folder.appending("manifest.sqlite")
        switch damage {
        case "random":
            var generator = SystemRandomNumberGenerator()
            let noise = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try noise.write(to: URL(fileURLWithPath: manifest))
        case "empty-header":
            try Data(repeating: 0xFF, count: 100).write(to: URL(fileURLWithPath: manifest))
        default:
            // A database from a future version of this library.
            var db: OpaquePointer?
            sqlite3_open(manifest, &db)
            sqlite3_exec(db, "PRAGMA user_version = 99", nil, nil, nil)
            sqlite3_close(db)
        }
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try DiskCache(path: folder.path, logger: logger)
        #expect(log.contains(level: .error, "rebuilding"), "\(log.messages)")
        #expect(try cache.totalCount == 0)
        #expect(try cache.data(forKey: "0") == nil)
        try cache.setData(testBytes(30_000), forKey: "again")
        #expect(try cache.data(forKey: "again") == testBytes(30_000))
        #expect(cache.dataFileNames.count == 1)
    }

    @Test func errnoValuesMapToTypedErrors() {
        #expect(DiskCacheError.fromErrno(ENOSPC, path: "/p") == .diskFull(path: "/p"))
        #expect(DiskCacheError.fromErrno(EDQUOT, path: "/p") == .diskFull(path: "/p"))
        #expect(DiskCacheError.fromErrno(EACCES, path: "/p") == .permissionDenied(path: "/p"))
        #expect(DiskCacheError.fromErrno(EROFS, path: "/p") == .permissionDenied(path: "/p"))
        if case .fileSystem(_, let code, let message) = DiskCacheError.fromErrno(EIO, path: "/p") {
            #expect(code == EIO)
            #expect(!message.isEmpty)
        } else {
            Issue.record("EIO should be a file-system error")
        }
    }
}

/// The error `body` throws, or `nil` when it succeeds.
private func error(_ body: () throws(DiskCacheError) -> some Any) -> DiskCacheError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
